"""Demo AML data: the rule catalogue with a few suspicious stories and their alerts, a rule change waiting for a
second MLRO and a snooze, and payments that came through the intake (allowed, held, blocked).

The stories use fixed dates and ledger references (skipped once there) and alerts are deduplicated by the engine,
so a second seed adds nothing.
"""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from backoffice.demo import demo_staff
from backoffice.errors import DomainError
from backoffice.models import ServiceKey
from backoffice.services.service_keys import service_key_create, service_key_rotate
from compliance.aml.models.governance import RuleProposal, RuleSnooze
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.catalogue import rule_catalogue_load
from compliance.aml.services.governance import rule_propose, rule_snooze
from compliance.aml.services.scans import scan
from compliance.aml.services.screening import screening_paused, wait_for_background_alerts
from kyc.choices import Channel, TransactionType
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record
from kyc.services.ledger import transaction_intake

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


def seed_governance(stdout) -> None:
    """A rule change waiting for a second MLRO, and a snooze, so the four-eyes pages have something to show."""
    mlro = demo_staff("mlro")
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
    seed_rules(stdout)
    seed_governance(stdout)
    seed_intake(stdout)
