"""Screening at record time: the ledger service asks the engine before the money moves; alerts follow the commit."""

from decimal import Decimal
from unittest import mock

from compliance.aml.models.alerts import Alert
from compliance.aml.services.screening import screening_paused
from compliance.aml.tests.engine.helpers import make_rule
from kyc.models import Transaction
from kyc.services import transaction_record


def test_recording_a_transaction_raises_its_alert_after_commit(user, django_capture_on_commit_callbacks):
    make_rule("threshold", thresholdAmount=1000)
    with django_capture_on_commit_callbacks(execute=True):
        tx = transaction_record(user=user, type="TOP_UP", amount=Decimal("5000"))
    alert = Alert.objects.get()
    assert alert.user_id == user.pk and list(alert.related_transactions.all()) == [tx]


def test_the_hook_sees_the_users_earlier_rows_for_window_rules(user, django_capture_on_commit_callbacks):
    make_rule("structuring", thresholdAmount=3000, thresholdCount=3, timeWindowHours=24)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            transaction_record(user=user, type="TOP_UP", amount=Decimal("1000"))
    assert not Alert.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        transaction_record(user=user, type="TOP_UP", amount=Decimal("1000"))
    assert Alert.objects.get().related_transactions.count() == 3


def test_an_engine_failure_never_loses_the_ledger_row(user, django_capture_on_commit_callbacks):
    make_rule("threshold", thresholdAmount=1)
    with mock.patch("compliance.aml.engine.runner.evaluate", side_effect=RuntimeError("engine down")):
        with django_capture_on_commit_callbacks(execute=True):
            tx = transaction_record(user=user, type="TOP_UP", amount=Decimal("50"))
    assert Transaction.objects.filter(pk=tx.pk).exists()
    user.refresh_from_db()
    assert user.balance == Decimal("50.00")


def test_nothing_is_screened_before_the_ledger_commits(user, django_capture_on_commit_callbacks):
    make_rule("threshold", thresholdAmount=1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        transaction_record(user=user, type="TOP_UP", amount=Decimal("50"))
    assert len(callbacks) == 1 and not Alert.objects.exists()


def test_bulk_loaders_can_pause_screening(user, django_capture_on_commit_callbacks):
    make_rule("threshold", thresholdAmount=1)
    with screening_paused(), django_capture_on_commit_callbacks(execute=True) as callbacks:
        transaction_record(user=user, type="TOP_UP", amount=Decimal("50"))
    assert callbacks == [] and not Alert.objects.exists()
