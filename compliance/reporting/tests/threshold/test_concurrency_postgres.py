"""Concurrent cash of one customer, on PostgreSQL: one report per user and day, whatever the interleaving."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import transaction

from backoffice.tests.concurrency import run_in_threads
from compliance.reporting.models import ThresholdReport
from compliance.reporting.services.threshold import threshold_report_for_transaction
from compliance.reporting.tests.threshold.helpers import MORNING, cash
from kyc.tests.factories import TransactionFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_simultaneous_cash_through_the_ledger_opens_one_report_holding_all_of_it(rule, customer):
    outcomes = run_in_threads(8, lambda i: cash(customer, "5000", at=MORNING + dt.timedelta(minutes=i)))
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    report = ThresholdReport.objects.get()
    assert report.total == Decimal("40000.00")
    assert set(report.transactions.all()) == set(outcomes)


def test_writers_without_the_row_lock_still_make_one_report(rule, customer):
    # rows written by a path that took no user lock: the unique constraint decides, the loser joins the winner
    txs = [
        TransactionFactory(
            user=customer, channel="CASH", amount=Decimal("30000"), created_at=MORNING + dt.timedelta(minutes=i)
        )
        for i in range(6)
    ]

    def record(i):
        with transaction.atomic():
            return threshold_report_for_transaction(transaction=txs[i])

    outcomes = run_in_threads(6, record)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    report = ThresholdReport.objects.get()
    assert {o.pk for o in outcomes} == {report.pk}
    assert set(report.transactions.all()) == set(txs)
    assert report.total == Decimal("180000.00")
