"""Reports open by themselves when a customer's completed cash of one Eswatini day reaches the threshold."""

import datetime as dt
from decimal import Decimal

import pytest

from compliance.reporting.choices import ThresholdReportStatus
from compliance.reporting.models import ThresholdReport
from compliance.reporting.services.threshold import threshold_batch_prepare
from compliance.reporting.tests.threshold.helpers import MORNING, cash
from kyc import hooks
from kyc.services import transaction_record
from kyc.services.ledger import lock_user

pytestmark = pytest.mark.django_db


def test_just_below_the_threshold_opens_nothing(rule, customer):
    cash(customer, "24999.99")
    assert not ThresholdReport.objects.exists()


def test_reaching_the_threshold_exactly_opens_a_pending_report_with_the_days_cash(rule, customer):
    first = cash(customer, "20000")
    second = cash(customer, "5000", at=MORNING + dt.timedelta(hours=2))
    report = ThresholdReport.objects.get()
    assert report.status == ThresholdReportStatus.PENDING
    assert report.user == customer and report.day == dt.date(2026, 6, 10)
    assert report.total == Decimal("25000.00") and report.threshold == Decimal("25000.00")
    assert set(report.transactions.all()) == {first, second}


def test_above_the_threshold_in_one_transaction(rule, customer):
    tx = cash(customer, "30000.50")
    report = ThresholdReport.objects.get()
    assert report.total == Decimal("30000.50") and list(report.transactions.all()) == [tx]


def test_later_cash_of_the_day_joins_while_pending_and_not_once_batched(rule, customer, staff):
    cash(customer, "26000")
    later = cash(customer, "100", at=MORNING + dt.timedelta(hours=3))
    report = ThresholdReport.objects.get()
    assert later in report.transactions.all() and report.total == Decimal("26100.00")
    threshold_batch_prepare(actor=staff["officer"])
    last = cash(customer, "50", at=MORNING + dt.timedelta(hours=4))
    report.refresh_from_db()
    assert last not in report.transactions.all() and report.total == Decimal("26100.00")
    assert ThresholdReport.objects.count() == 1  # never a second report for the day


def test_the_day_is_eswatinis_not_utcs(rule, customer):
    # 23:30 UTC on the 9th is 01:30 on the 10th in Mbabane: the same day as the morning's cash
    cash(customer, "15000", at=dt.datetime(2026, 6, 9, 23, 30, tzinfo=dt.UTC))
    cash(customer, "10000", at=dt.datetime(2026, 6, 10, 21, 59, tzinfo=dt.UTC))
    # 22:00 UTC on the 10th is midnight in Mbabane: the next day
    cash(customer, "24000", at=dt.datetime(2026, 6, 10, 22, 0, tzinfo=dt.UTC))
    report = ThresholdReport.objects.get()
    assert report.day == dt.date(2026, 6, 10) and report.total == Decimal("25000.00")


@pytest.mark.parametrize(
    "fields",
    [{"channel": "WALLET"}, {"channel": "CASH", "status": "PENDING"}, {"channel": "CASH", "status": "HELD"}],
)
def test_only_completed_cash_counts(rule, customer, fields):
    transaction_record(user=customer, type="TOP_UP", amount=Decimal("30000"), created_at=MORNING, **fields)
    assert not ThresholdReport.objects.exists()


def test_without_an_active_reporting_rule_nothing_opens(rule, customer):
    rule.is_active = False
    rule.save()
    cash(customer, "90000")
    assert not ThresholdReport.objects.exists()


def test_the_lowest_active_threshold_applies(rule, customer):
    rule.conditions = {"ruleType": "regulatory_reporting", "reportingThreshold": 10000}
    rule.save()
    cash(customer, "10000")
    assert ThresholdReport.objects.get().threshold == Decimal("10000.00")


def test_the_filing_deadline_is_ctr_filing_days_after_the_day(rule, customer, settings):
    settings.CTR_FILING_DAYS = 3
    cash(customer, "25000")
    # end of 13 June in Mbabane = 22:00 UTC on the 13th
    assert ThresholdReport.objects.get().due_at == dt.datetime(2026, 6, 13, 22, 0, tzinfo=dt.UTC)


def test_a_user_with_a_threshold_report_is_held_from_purge(rule, customer):
    assert not hooks.purge_held.any(user=customer)
    cash(customer, "25000")
    assert hooks.purge_held.any(user=customer)


def test_a_held_cash_transaction_counts_once_it_is_completed(rule, customer):
    cash(customer, "20000")
    held = transaction_record(
        user=customer, type="TOP_UP", amount=Decimal("6000"), channel="CASH", status="HELD", created_at=MORNING
    )
    assert not ThresholdReport.objects.exists()
    # the release (the intake's, issue 17) completes the row under the wallet's lock and says so
    lock_user(customer)
    held.status = "COMPLETED"
    held.save(update_fields=["status"])
    hooks.transaction_completed(transaction=held)
    report = ThresholdReport.objects.get()
    assert report.total == Decimal("26000.00") and held in report.transactions.all()
