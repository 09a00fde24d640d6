"""Demo threshold reports: cash days that reach the reporting threshold, in every state of the answer loop.

Cash goes through the ledger (``transaction_record``), so the reports open by
themselves as in production; batches are then prepared, submitted and
answered by the demo staff, each step by the person the four eyes allow.
Idempotent: the first cash row's reference marks the demo as loaded.
"""

import datetime as dt
from decimal import Decimal

from backoffice.demo import demo_staff
from compliance.aml.services.scans import scan
from compliance.aml.services.screening import screening_paused
from compliance.reporting.models import ThresholdReport
from compliance.reporting.services.threshold import (
    threshold_batch_prepare,
    threshold_batch_submit,
    threshold_report_answer,
)
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record

MARK = "CTR-DEMO-1"
SCAN_SINCE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
# (user index, amount, day, hour UTC; users the intake's demo payments leave alone, so each wallet's rows are
# recorded in time order), in three rounds: before the first batch (one report accepted, one
# rejected), before the second (the rejected one goes again with a new day), after it (one pending, one day
# below the threshold)
ROUNDS = [
    [
        (20, "15000.00", dt.date(2026, 11, 3), 7),
        (20, "12000.00", dt.date(2026, 11, 3), 12),
        (21, "30000.00", dt.date(2026, 11, 4), 9),
    ],
    [(22, "26000.00", dt.date(2026, 11, 12), 8), (22, "800.00", dt.date(2026, 11, 12), 14)],
    [
        (23, "24000.00", dt.date(2026, 11, 20), 10),
        (23, "2500.00", dt.date(2026, 11, 20), 15),
        (20, "24999.99", dt.date(2026, 11, 21), 9),
    ],
]


def _cash(users, rows, first_number: int) -> int:
    n = first_number
    for index, amount, day, hour in rows:
        n += 1
        transaction_record(
            user=users[index],
            type="TOP_UP",
            amount=Decimal(amount),
            channel="CASH",
            reference=f"CTR-DEMO-{n}",
            reason="Cash deposit at an agent",
            region="Mbabane",
            created_at=dt.datetime.combine(day, dt.time(hour), dt.UTC),
        )
    return n


def seed(stdout) -> None:
    people = {key: demo_staff(key) for key in ("compliance", "mlro", "mlro2")}
    users = list(PlatformUser.objects.filter(is_archived=False).order_by("phone_number")[:24])
    if Transaction.objects.filter(reference=MARK).exists():
        stdout.write(f"Threshold reports: already there ({ThresholdReport.objects.count()})")
        return
    if len(users) < 13 or not all(people.values()):
        stdout.write("Threshold reports: skipped (demo users or compliance staff missing)")
        return
    # the AML scan sees the cash once, after it is all written (as the demo's other stories): a second seed
    # then finds every alert already raised
    with screening_paused():
        _seed_rounds(users, people)
    scan(since=SCAN_SINCE)
    stdout.write(f"Threshold reports: {ThresholdReport.objects.count()} (accepted, filed again, pending)")


def _seed_rounds(users, people) -> None:
    n = _cash(users, ROUNDS[0], 0)
    first = threshold_batch_prepare(actor=people["compliance"])
    threshold_batch_submit(batch=first, actor=people["mlro"], fiu_reference="EFIU-CTR-2026-0001")
    accepted, rejected = ThresholdReport.objects.filter(batch=first).order_by("day")
    threshold_report_answer(report=accepted, actor=people["mlro"], accepted=True)
    threshold_report_answer(
        report=rejected, actor=people["mlro"], accepted=False, reason="The conductor's identity document is missing"
    )
    n = _cash(users, ROUNDS[1], n)
    # the rejected report goes again with the new day's, in a batch prepared by an MLRO, awaiting the other's submission
    threshold_batch_prepare(actor=people["mlro2"])
    _cash(users, ROUNDS[2], n)
