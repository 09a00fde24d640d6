"""Demo of sanctions screening, after the lists are loaded: a customer with a potential match, a confirmed (frozen)
one, and a payment held because its counterparty is listed. Everything goes through the services; running it
twice changes nothing (fixed phone numbers and external id; a decided match is left as it is)."""

from decimal import Decimal

from backoffice.models import Staff
from compliance.sanctions.choices import EntryType
from compliance.sanctions.match_choices import MatchParty, MatchStatus
from compliance.sanctions.models import SanctionsEntry
from compliance.sanctions.models.match import SanctionsMatch
from compliance.sanctions.services.review import sanctions_match_review
from compliance.sanctions.services.screening import screen_user
from kyc.models import PlatformUser
from kyc.services import user_register
from kyc.services.ledger import transaction_intake

PASSWORD = "Demo-customer-2026!"  # noqa: S105 - the demo's printed customer password, never a deployment's
POTENTIAL_PHONE, CONFIRMED_PHONE, PAYER_PHONE = "+26876990001", "+26876990002", "+26876990003"
HELD_EXTERNAL_ID = "demo-sanctions-held-1"


def _customer(phone: str, name: str) -> PlatformUser:
    existing = PlatformUser.objects.filter(phone_number=phone).first()
    if existing is not None:
        return existing
    first, _, last = name.partition(" ")
    return user_register(phone_number=phone, password=PASSWORD, first_name=first, last_name=last or first)


def _entries(entry_type: str, count: int) -> list[SanctionsEntry]:
    qs = SanctionsEntry.objects.filter(removed_at__isnull=True, entry_type=entry_type).order_by("reference")
    return [entry for entry in qs[:50] if 2 <= len(entry.name.split()) <= 3][:count]


def seed(stdout) -> None:
    people = _entries(EntryType.INDIVIDUAL, 2)
    entities = _entries(EntryType.ENTITY, 1)
    if len(people) < 2 or not entities:
        stdout.write("Sanctions screening: no lists loaded, no matches seeded")
        return
    potential = _customer(POTENTIAL_PHONE, people[0].name)
    confirmed = _customer(CONFIRMED_PHONE, people[1].name)
    for user in (potential, confirmed):
        screen_user(user_id=user.pk)
    mlro = Staff.objects.filter(email="mlro@vikela.demo").first()
    confirmed.refresh_from_db()
    match = SanctionsMatch.objects.filter(party=MatchParty.USER, user=confirmed, status=MatchStatus.POTENTIAL).first()
    # once: the name can match more than one entry, and a second run must not confirm the next one (a second SAR)
    if match is not None and mlro is not None and not confirmed.is_frozen:
        sanctions_match_review(
            match=match, actor=mlro, status=MatchStatus.CONFIRMED, note="Demo: name and date of birth agree"
        )
    payer = _customer(PAYER_PHONE, "Sibusiso Nkambule")
    transaction_intake(
        external_id=HELD_EXTERNAL_ID,
        user_id=payer.pk,
        type="TRANSFER_OUT",
        amount=Decimal("250.00"),
        counterparty_name=entities[0].name,
    )
    stdout.write(
        f"Sanctions screening: {potential.full_name} potential, {confirmed.full_name} confirmed (frozen), "
        f"a payment to {entities[0].name} held"
    )
