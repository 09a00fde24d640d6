"""Demo PEP list (every category, aliases, other scripts) of which a few entries match demo users, one match
confirmed and one dismissed by the demo compliance officer. Idempotent: entries already on the list are skipped.
"""

from backoffice.demo import demo_staff
from compliance.peps.models.pep import PEP, PEPMatch, normalise_name
from compliance.peps.selectors.pep import screening_coverage
from compliance.peps.services.pep import pep_create
from compliance.peps.services.pep_matches import pep_match_review
from compliance.peps.services.screening import screen_everything

# name, category, position, country, aliases, date of birth, active. Four match demo users (Sibusiso Mkhonta,
# Lungile Vilakati, Mandla Zwane, Bheki Nxumalo); "Sipho Dlamini" shares only the commonest surname with
# several of them and matches none.
DEMO_PEPS = [
    ("Mswati III", "Head of State", "King", "Eswatini", ["Makhosetive Dlamini", "Ingwenyama"], "1968-04-19", True),
    ("Russell Mmiso Dlamini", "Senior Politician", "Prime Minister", "Eswatini", ["R. M. Dlamini"], "1976-02-01", True),
    ("Sipho Dlamini", "Senior Politician", "Member of Parliament", "Eswatini", [], "", True),
    ("Sibusiso Mkhonta", "Government Official", "Principal Secretary, Ministry of Finance", "Eswatini", [], "", True),
    ("Lungile Nompumelelo Vilakati", "Judge", "Judge of the High Court", "Eswatini", [], "", True),
    ("Brigadier Mandla Zwane", "Military Officer", "Commander, Defence Force", "Eswatini", [], "", True),
    ("Phil Mnisi", "Central Bank Official", "Deputy Governor, Central Bank of Eswatini", "Eswatini", [], "1971", True),
    ("NXUMALO, Bheki", "State Enterprise Executive", "Chief Executive, power utility", "Eswatini", [], "", True),
    ("Inkhosikati LaMbikiza", "Family Member", "Wife of the King", "Eswatini", ["Sibonelo Mngometulu"], "", True),
    ("Владимир Иванов", "Close Associate", "Partner of a minister", "Russia", ["Vladimir Ivanov"], "1964-11-02", True),
    ("محمد بن علي", "Unknown", "", "Oman", ["Mohammed bin Ali"], "", True),
    ("王建国", "Government Official", "Vice-Minister of Commerce", "China", ["Wang Jianguo"], "1962-05", True),
    ("Γιώργος Παπαδόπουλος", "Senior Politician", "Member of Parliament", "Greece", ["Giorgos Papadopoulos"], "", True),
    ("Thulani Mavuso", "Government Official", "Former Regional Administrator, Lubombo", "Eswatini", [], "", False),
]  # fmt: skip
# (PEP, demo user phone, decision, note): reviews made by the demo compliance officer
DEMO_REVIEWS = [
    ("Sibusiso Mkhonta", "+26876200002", "CONFIRMED", "ID number and date of birth agree with the gazette notice."),
    ("Brigadier Mandla Zwane", "+26876210005", "DISMISSED", "Different person: a teacher in Manzini, not the officer."),
]


def seed(stdout) -> None:
    officer = demo_staff("compliance")
    existing = set(PEP.objects.values_list("name_key", flat=True))
    created = 0
    for name, category, position, country, aliases, born, active in DEMO_PEPS:
        if normalise_name(name) in existing:
            continue
        pep_create(
            actor=officer,
            name=name,
            category=category,
            position=position,
            country=country,
            aliases=aliases,
            date_of_birth=born,
            is_active=active,
            source="Vikela demo list",
        )
        created += 1
    coverage = screening_coverage()
    if coverage.share < 1 or coverage.peps_pending:
        # demo users are loaded without the registration path: screen the whole list against them once
        screen_everything(actor=officer)
    reviewed = 0
    for pep_name, phone, decision, note in DEMO_REVIEWS:
        match = PEPMatch.objects.filter(pep_name_key=normalise_name(pep_name), user__phone_number=phone).first()
        if officer and match and match.status == "POTENTIAL" and match.reviewed_at is None:
            pep_match_review(match=match, actor=officer, status=decision, note=note)
            reviewed += 1
    stdout.write(
        f"PEPs: {created} created ({PEP.objects.count()} on the list), "
        f"{PEPMatch.objects.count()} matches with demo users, {reviewed} reviewed"
    )
