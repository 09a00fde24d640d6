"""Demo compliance data: the AML rule catalogue with a few suspicious stories and their alerts,
SARs in every state of the workflow, and a PEP list (every category, aliases, other scripts) of which a few
entries match demo users, one match confirmed and one dismissed.

The stories use fixed dates and ledger references (skipped once there) and
alerts are deduplicated by the engine.

Deterministic and idempotent: every demo SAR has a fixed ``sarId``
(``SAR-1767225600000-DEMO01`` ...) and is left alone once it exists. Each is
filed and moved through the real services by the demo staff, so the history,
the four-eyes stamps and the audit log look exactly as in production. The
draft cites its subject's structuring alert (escalated: "SAR in progress"),
one report was returned by its reviewer and rewritten (two narrative
versions), and one carries comments and an evidence file.
"""

import datetime as dt
import io
from decimal import Decimal

import pikepdf
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from backoffice.errors import DomainError
from backoffice.models import Staff
from compliance.aml.engine.hooks import screening_paused, wait_for_background_alerts
from compliance.aml.engine.runner import scan
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.catalogue import rule_catalogue_load
from compliance.casework.services.casework import attachment_add, comment_add
from compliance.peps.models.pep import PEP, PEPMatch, normalise_name
from compliance.peps.selectors.pep import screening_coverage
from compliance.peps.services.pep import pep_create
from compliance.peps.services.pep_matches import pep_match_review
from compliance.peps.services.screening import screen_everything
from compliance.reporting import demo as reporting_demo
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.services.sar import sar_create, sar_return, sar_transition
from compliance.sars.services.sar_drafts import sar_update
from kyc.choices import Channel, TransactionType
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record

STAMP = "1767225600000"  # 2026-01-01T00:00:00Z in milliseconds

# suffix, subject index, activity type, amount, days before today, final state, people, description
DEMO_SARS = [
    (
        "DEMO01",
        0,
        "structuring",
        "44100.00",
        12,
        SARStatus.DRAFT,
        ("compliance", None, None),
        "WHO: The customer, a wallet holder since June 2026.\n\n"
        "WHAT: Nine mobile-money top-ups of SZL 4,900 within 48 hours, each just under the SZL 5,000 reporting "
        "threshold.\n\nWHEN: [the dates and times, first to last]\n\nWHERE: Mobile money, Manzini region.\n\n"
        "WHY: [why splitting is suspicious here: no business reason given, a threshold avoided]\n\n"
        "HOW: [the pattern: amounts just under the reporting threshold, split across days, channels or agents]",
    ),
    (
        "DEMO02",
        1,
        "unusual_pattern",
        "18250.00",
        20,
        SARStatus.PENDING_REVIEW,
        ("compliance2", None, None),
        "Dormant wallet reactivated and used to receive transfers from eleven unrelated senders in one week.",
    ),
    (
        "DEMO03",
        2,
        "large_cash",
        "98000.00",
        9,
        SARStatus.PENDING_APPROVAL,
        ("compliance", "compliance2", None),
        "Cash-funded top-ups totalling SZL 98,000 inconsistent with the customer's stated occupation (student).",
    ),
    (
        "DEMO04",
        0,
        "money_laundering",
        "152400.50",
        30,
        SARStatus.SUBMITTED,
        ("compliance2", "compliance", "mlro"),
        "Rapid in-and-out movement: funds received by transfer are withdrawn within minutes, leaving no balance.",
    ),
    (
        "DEMO05",
        1,
        "fraud",
        "7300.00",
        45,
        SARStatus.ACKNOWLEDGED,
        ("compliance", "compliance2", "mlro2"),
        "Card payments at a vendor the customer reported as unauthorised, followed by a disputed chargeback.",
    ),
    (
        "DEMO06",
        2,
        "terrorist_financing",
        "3200.00",
        60,
        SARStatus.UNDER_INVESTIGATION,
        ("compliance2", "compliance", "mlro"),
        "Small recurring transfers to a counterparty named in a screening alert; pattern matches CFT typology.",
    ),
    (
        "DEMO07",
        0,
        "sanctions_violation",
        "25000.00",
        90,
        SARStatus.CLOSED,
        ("compliance", "compliance2", "mlro2"),
        "Payment to a vendor whose director matched a sanctions list entry; FIU investigated and closed the case.",
    ),
    (
        "DEMO08",
        1,
        "other",
        "1200.00",
        75,
        SARStatus.CLOSED,
        ("compliance2", "compliance", "mlro"),
        "Customer attempted to register several wallets with altered identity documents; FIU acknowledged and closed.",
    ),
]
# The road to each state; DEMO08 takes the diagram's shortcut ACKNOWLEDGED -> CLOSED.
ROAD = [
    SARStatus.PENDING_REVIEW,
    SARStatus.PENDING_APPROVAL,
    SARStatus.SUBMITTED,
    SARStatus.ACKNOWLEDGED,
    SARStatus.UNDER_INVESTIGATION,
    SARStatus.CLOSED,
]
SHORTCUT = {"DEMO08"}
# DEMO02 went to review, came back with the reviewer's reason, was rewritten and handed in again.
RETURNED = {
    "DEMO02": (
        "Name the eleven senders and give the dates of their transfers.",
        "Dormant wallet (no activity for five months) reactivated and used to receive transfers from eleven "
        "unrelated senders between the 3rd and the 9th of the month, SZL 18,250 in all, moved on the same days.",
    )
}
NOTES = {
    SARStatus.PENDING_REVIEW: "Draft complete, evidence attached.",
    SARStatus.PENDING_APPROVAL: "Reviewed: facts and amounts checked against the ledger.",
    SARStatus.SUBMITTED: "Approved by the MLRO and filed with the FIU through goAML.",
    SARStatus.ACKNOWLEDGED: "FIU acknowledged receipt.",
    SARStatus.UNDER_INVESTIGATION: "FIU opened an investigation.",
    SARStatus.CLOSED: "FIU closed the case.",
}


def _staff(key: str) -> Staff | None:
    return Staff.objects.filter(email=f"{key}@vikela.demo").first()


def _evidence(user: PlatformUser, suffix: str) -> list[Transaction]:
    """The subject's three latest ledger rows; a demo user without a ledger gets three fixed top-ups."""
    rows = list(Transaction.objects.filter(user=user).order_by("-created_at", "-id")[:3])
    if rows:
        return rows
    base = dt.datetime(2026, 1, 1, 9, 0, tzinfo=dt.UTC)
    return [
        transaction_record(
            user=user,
            type=TransactionType.TOP_UP,
            amount=Decimal("4900.00"),
            channel=Channel.MOBILE_MONEY,
            reference=f"DEMO-SAR-{suffix}-{n}",
            reason="Mobile-money top-up",
            created_at=base + dt.timedelta(hours=n),
        )
        for n in range(1, 4)
    ]


def seed_sars(stdout) -> None:
    users = list(PlatformUser.objects.order_by("phone_number")[:3])
    people = {key: _staff(key) for key in ("compliance", "compliance2", "mlro", "mlro2")}
    if len(users) < 3 or not all(people.values()):
        stdout.write("SARs: skipped (demo users or compliance staff missing)")
        return
    created = 0
    for suffix, index, kind, amount, days_ago, final, (filer, reviewer, approver), text in DEMO_SARS:
        sar_id = f"SAR-{STAMP}-{suffix}"
        if SAR.objects.filter(sar_id=sar_id).exists():
            continue
        user = users[index]
        sar = sar_create(
            actor=people[filer],
            entity_user_id=user.pk,
            suspicious_activity_type=kind,
            activity_description=text,
            amount_involved=Decimal(amount),
            date_of_suspicious_activity=dt.date.today() - dt.timedelta(days=days_ago),
            related_transaction_ids=[t.pk for t in _evidence(user, suffix)],
            sar_id=sar_id,
        )
        _casework(suffix, sar, user, people)
        road = [s for s in ROAD if not (suffix in SHORTCUT and s == SARStatus.UNDER_INVESTIGATION)]
        for status in road[: road.index(final) + 1] if final != SARStatus.DRAFT else []:
            actor = people[
                {SARStatus.PENDING_REVIEW: filer, SARStatus.PENDING_APPROVAL: reviewer}.get(status, approver)
            ]
            sar = sar_transition(
                sar=sar,
                actor=actor,
                status=status,
                note=NOTES[status],
                fiu_reference=f"FIU-SZ-2026-{suffix[-2:]}" if status == SARStatus.ACKNOWLEDGED else "",
            )
            if status == SARStatus.PENDING_REVIEW and suffix in RETURNED:
                reason, rewritten = RETURNED[suffix]
                back = people["compliance"] if filer != "compliance" else people["compliance2"]
                sar = sar_return(sar=sar, actor=back, reason=reason)
                sar = sar_update(sar=sar, actor=people[filer], activity_description=rewritten)
                sar = sar_transition(sar=sar, actor=actor, status=status, note="Senders and dates added.")
        created += 1
    stdout.write(
        f"SARs: {created} created, {SAR.objects.filter(sar_id__startswith=f'SAR-{STAMP}-DEMO').count()} "
        "demo SARs in every state"
    )


def _demo_pdf(title: str) -> bytes:
    """A one-page PDF without script or attachments (it passes the upload checks): the demo's evidence file."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(595, 842))
    pdf.docinfo["/Title"] = title
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _casework(suffix: str, sar: SAR, user: PlatformUser, people: dict) -> None:
    """What officers added while they worked the demo reports: a cited alert, comments, an evidence file."""
    if suffix == "DEMO01":
        alert = Alert.objects.filter(user=user, rule__rule_type="structuring").order_by("created_at").first()
        if alert is not None:
            sar_update(sar=sar, actor=people["compliance"], related_alert_ids=[alert.pk])
            comment_add(actor=people["compliance"], alert=alert, text="Drafting a SAR on this pattern.")
    if suffix == "DEMO03":
        comment_add(
            actor=people["compliance2"],
            sar=sar,
            text="Checked the declared occupation (student) against the funding: no income to explain it.",
        )
        comment_add(
            actor=people["compliance"],
            sar=sar,
            for_report=True,
            text="Asked about the source of the cash on 2 November, the customer said it was a family gift.",
        )
        statement = SimpleUploadedFile(
            "Wallet statement.pdf", _demo_pdf("Wallet statement"), content_type="application/pdf"
        )
        attachment_add(actor=people["compliance"], sar=sar, file=statement)


# ---------------------------------------------------------------- AML rules and alerts

# The demo ledger starts in 2026; scanning from a fixed date keeps the run deterministic.
DEMO_SCAN_SINCE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
STORY_DAY = dt.datetime(2026, 11, 10, 7, 0, tzinfo=dt.UTC)


def _at(hours: float) -> dt.datetime:
    return STORY_DAY + dt.timedelta(hours=hours)


def _transfer(sender, receiver, amount, ref, when, **extra) -> None:
    transaction_record(
        user=sender,
        type="TRANSFER_OUT",
        amount=Decimal(amount),
        counterparty_user=receiver,
        reference=ref,
        created_at=when,
        **extra,
    )
    transaction_record(
        user=receiver,
        type="TRANSFER_IN",
        amount=Decimal(amount),
        counterparty_user=sender,
        reference=f"{ref}-IN",
        created_at=when,
        **extra,
    )


def _stories(users: list[PlatformUser]) -> int:
    """Ledger rows that the catalogue should flag: structuring, pass-through, fan-in, cross-border."""
    if len(users) < 9 or Transaction.objects.filter(reference="AML-DEMO-STR-1").exists():
        return 0
    smurf, mule, payee, collector, abroad = users[:5]
    senders = users[5:9] + [smurf]
    top_up = "TOP_UP"
    # Three mobile-money top-ups just under E10,000 within the morning: structuring, a reporting day.
    for i in range(3):
        transaction_record(
            user=smurf,
            type=top_up,
            amount=Decimal("9400.00"),
            channel="MOBILE_MONEY",
            reference=f"AML-DEMO-STR-{i + 1}",
            created_at=_at(i * 1.5),
            region="Manzini",
        )
    # A large top-up sent on within twenty minutes: a pass-through wallet.
    transaction_record(
        user=mule, type=top_up, amount=Decimal("12000.00"), channel="BANK", reference="AML-DEMO-DW-1", created_at=_at(2)
    )
    _transfer(mule, payee, "11500.00", "AML-DEMO-DW-2", _at(2.33))
    # Five wallets each send E6,500 to one collector within two days.
    for i, sender in enumerate(senders):
        if sender != smurf:
            transaction_record(
                user=sender,
                type=top_up,
                amount=Decimal("7000.00"),
                channel="MOBILE_MONEY",
                reference=f"AML-DEMO-NET-TOP-{i}",
                created_at=_at(10 * i),
            )
        _transfer(sender, collector, "6500.00", f"AML-DEMO-NET-{i}", _at(10 * i + 3))
    # A transfer made in South Africa, and one to a high-risk CFT jurisdiction.
    transaction_record(
        user=abroad, type=top_up, amount=Decimal("10000.00"), reference="AML-DEMO-XB-1", created_at=_at(30)
    )
    transaction_record(
        user=abroad,
        type="TRANSFER_OUT",
        amount=Decimal("6200.00"),
        country="ZA",
        region="Johannesburg",
        reference="AML-DEMO-XB-2",
        created_at=_at(33),
    )
    transaction_record(
        user=abroad,
        type="TRANSFER_OUT",
        amount=Decimal("2500.00"),
        country="SO",
        reference="AML-DEMO-XB-3",
        created_at=_at(40),
    )
    return Transaction.objects.filter(reference__startswith="AML-DEMO-").count()


def seed_rules(stdout) -> None:
    counts = rule_catalogue_load()
    users = list(PlatformUser.objects.filter(is_archived=False).order_by("phone_number")[:9])
    with screening_paused():
        rows = _stories(users)
    result = scan(since=DEMO_SCAN_SINCE)
    stdout.write(
        f"AML rules: {counts['created']} created, {counts['unchanged']} already there; "
        f"{rows} story rows added; scan: {result.hits} hits, {result.alerts_created} new alerts"
    )


# ---------------------------------------------------------------- PEPs

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


def seed_peps(stdout) -> None:

    officer = _staff("compliance")
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


def seed_governance(stdout) -> None:
    """A rule change waiting for a second MLRO, and a snooze, so the four-eyes pages have something to show."""
    from compliance.aml.models.governance import RuleProposal, RuleSnooze
    from compliance.aml.services.governance import rule_propose, rule_snooze

    mlro = _staff("mlro")
    rule = AMLRule.objects.filter(rule_id="AML-THR-001").first()
    if mlro is None or rule is None:
        return
    proposed = 0
    if not RuleProposal.objects.filter(rule=rule).exists() and rule.conditions.get("thresholdAmount") == 50000:
        rule_propose(
            rule=rule,
            actor=mlro,
            changes={"conditions": {**rule.conditions, "thresholdAmount": 40000}},
            reason="Quarterly tuning: the FIU's typology report puts large single transfers from E40,000.",
        )
        proposed = 1
    snoozed = 0
    user = PlatformUser.objects.filter(is_archived=False).order_by("phone_number").first()
    velocity = AMLRule.objects.filter(rule_type="velocity").order_by("rule_id").first()
    if user and velocity and not RuleSnooze.objects.exists():
        rule_snooze(
            rule=velocity,
            user=user,
            actor=mlro,
            expires_at=timezone.now() + dt.timedelta(days=30),
            reason="Seasonal school-fee payments, confirmed with the customer and the school.",
        )
        snoozed = 1
    stdout.write(f"Rule governance: {proposed} change proposed for approval, {snoozed} snooze added")


# ---------------------------------------------------------------- the payment platform's intake

DEMO_KEY_NAME = "demo-payment-platform"
# (externalId, user index, type, amount, channel, hours ago): what the demo payment platform sends. With the
# catalogue's actions: small payments are allowed, E50,000+ is held (AML-THR-001), E150,000+ blocked
# (AML-THR-002); the first held one waits past AML_HELD_ESCALATE_HOURS, so the queue shows an escalation.
DEMO_INTAKE = [
    ("DEMO-PAY-0001", 0, TransactionType.TOP_UP, Decimal("350.00"), Channel.MOBILE_MONEY, 30),
    ("DEMO-PAY-0002", 1, TransactionType.CARD_PAYMENT, Decimal("120.50"), Channel.CARD, 29),
    ("DEMO-PAY-0003", 2, TransactionType.TOP_UP, Decimal("62000.00"), Channel.BANK, 28),
    ("DEMO-PAY-0004", 3, TransactionType.WITHDRAWAL, Decimal("55000.00"), Channel.CASH, 5),
    ("DEMO-PAY-0005", 4, TransactionType.TRANSFER_IN, Decimal("75000.00"), Channel.BANK, 2),
    ("DEMO-PAY-0006", 5, TransactionType.TOP_UP, Decimal("180000.00"), Channel.BANK, 1),
    ("DEMO-PAY-0007", 6, TransactionType.VENDOR_PAYMENT, Decimal("45.00"), Channel.WALLET, 0),
]


def _demo_service_key(stdout) -> None:
    """The demo payment platform's key, printed once: made on the first run, a new secret on every later run
    (only a hash is kept, so a key cannot be shown again; the previous secret stops working)."""
    from backoffice.models import ServiceKey
    from backoffice.services.service_keys import service_key_create, service_key_rotate

    existing = ServiceKey.objects.filter(name=DEMO_KEY_NAME, revoked_at__isnull=True).first()
    if existing is not None:
        made = service_key_rotate(service_key=existing)
    else:
        made = service_key_create(name=DEMO_KEY_NAME)
    stdout.write(
        f"Service key for the demo payment platform ({made.service_key.name}), shown once; "
        "send it as X-API-Key to POST /api/v1/admin/aml/transactions:"
    )
    stdout.write(f"  {made.key}")


def seed_intake(stdout) -> None:
    """Transactions that came through the intake, as the platform sends them: allowed, held and blocked."""
    from kyc.services.ledger import transaction_intake

    _demo_service_key(stdout)
    users = list(PlatformUser.objects.filter(is_archived=False).order_by("phone_number")[10:17])
    if len(users) < 7:
        return
    now = timezone.now()
    decided: dict[str, int] = {}
    for external_id, index, type_, amount, channel, hours in DEMO_INTAKE:
        try:
            result = transaction_intake(
                external_id=external_id,
                user_id=users[index].pk,
                type=type_,
                amount=amount,
                channel=channel,
                occurred_at=now - dt.timedelta(hours=hours, minutes=index),
            )
        except DomainError as exc:  # a debit the demo wallet cannot afford: the platform would be told 409
            decided[exc.code] = decided.get(exc.code, 0) + 1
            continue
        decided[result.transaction.status] = decided.get(result.transaction.status, 0) + 1
    wait_for_background_alerts()
    stdout.write("Payment intake: " + ", ".join(f"{n} {status.lower()}" for status, n in sorted(decided.items())))


def seed(stdout) -> None:
    # PEPs first: the AML scan then sees the potential PEPs they flag (the pep_related rules), on the first run
    # as on any later one, so a second seed raises nothing new
    seed_peps(stdout)
    seed_rules(stdout)
    seed_governance(stdout)
    seed_intake(stdout)
    seed_sars(stdout)
    reporting_demo.seed(stdout)
    seed_risk(stdout)


def seed_risk(stdout) -> None:
    """The demo users were loaded with onboarding scores; put every stored score in step with the records, as the
    services keep it from here on (a second seed changes nothing)."""
    from kyc.models import PlatformUser
    from kyc.services import user_risk_refresh_many

    ids = list(PlatformUser.objects.order_by("pk").values_list("pk", flat=True))
    changes = user_risk_refresh_many(user_ids=ids, reason="Demo data: the score the records indicate")
    stdout.write(f"Risk: {sum(c.changed for c in changes.values())} of {len(ids)} users' scores set from the records")
