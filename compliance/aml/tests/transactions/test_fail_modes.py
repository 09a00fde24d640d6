"""A rule that fails while a payment is decided: fail-open records and flags it, fail-closed holds it."""

import logging
from decimal import Decimal
from unittest import mock

import pytest
from django.utils import timezone

from compliance.aml.engine import runner
from compliance.aml.services import screening
from compliance.aml.services.scans import scan
from compliance.aml.tests.transactions.helpers import make_rule
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record

pytestmark = pytest.mark.django_db

real_evaluate = runner.evaluate


@pytest.fixture
def broken(db):
    rule = make_rule("threshold", thresholdAmount=1)

    def evaluate(r, scope):
        if r.pk == rule.pk:
            raise RuntimeError("rule engine down")
        return real_evaluate(r, scope)

    with mock.patch.object(runner, "evaluate", side_effect=evaluate):
        yield rule


def test_fail_open_records_on_the_other_rules_flags_counts_and_logs(settings, user, broken, caplog):
    settings.AML_SCREENING_FAILURE = "open"
    before = screening.screening_failures.total
    with caplog.at_level(logging.ERROR, logger="compliance.aml.engine"):
        tx = transaction_record(user=user, type="TOP_UP", amount=Decimal("50"))
    assert (tx.status, tx.decision, tx.screening_failed) == ("COMPLETED", "ALLOW", True)
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("1050.00")
    assert screening.screening_failures.total == before + 1
    assert any("aml.screening_failed" in r.getMessage() and broken.rule_id in r.getMessage() for r in caplog.records)


def test_fail_open_keeps_the_working_rules_decision(settings, user, broken):
    settings.AML_SCREENING_FAILURE = "open"
    make_rule("threshold", action="hold", thresholdAmount=10)
    tx = transaction_record(user=user, type="TOP_UP", amount=Decimal("50"))
    assert (tx.status, tx.decision, tx.screening_failed) == ("HELD", "REVIEW", True)


def test_fail_closed_holds_the_transaction(settings, user, broken):
    settings.AML_SCREENING_FAILURE = "closed"
    tx = transaction_record(user=user, type="WITHDRAWAL", amount=Decimal("50"))
    assert (tx.status, tx.decision, tx.screening_failed) == ("HELD", "REVIEW", True)
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("1000.00")


def test_the_batch_scan_clears_the_flag_once_every_rule_has_seen_the_row(settings, user, broken):
    settings.AML_SCREENING_FAILURE = "open"
    tx = transaction_record(user=user, type="TOP_UP", amount=Decimal("50"))
    since = tx.created_at - timezone.timedelta(minutes=1)
    scan(since=since)  # the broken rule still fails: the flag stays
    assert Transaction.objects.get(pk=tx.pk).screening_failed
    with mock.patch.object(runner, "evaluate", side_effect=real_evaluate):
        result = scan(since=since)
    assert result.errors == 0 and result.alerts_created == 1
    assert not Transaction.objects.get(pk=tx.pk).screening_failed
