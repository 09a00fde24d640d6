"""Demo data of the compliance app: the AML rule catalogue, a few suspicious stories on the demo
ledger, and the alerts the engine raises on them.

Deterministic and idempotent: the stories use fixed dates and ledger references (a story whose
first reference exists is skipped), and alerts are deduplicated by the engine.
"""

import datetime as dt
from decimal import Decimal

from compliance.engine.hooks import screening_paused
from compliance.engine.runner import scan
from compliance.services.rules import rule_catalogue_load
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record

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


def seed(stdout) -> None:
    seed_rules(stdout)
