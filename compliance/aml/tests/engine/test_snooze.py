"""A rule snoozed for one user raises nothing for that user until the snooze expires or ends."""

import datetime as dt

import pytest
from django.utils import timezone

from backoffice.errors import Conflict, ValidationFailed
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.models.governance import RuleSnooze
from compliance.aml.services.governance import rule_snooze, rule_snooze_end
from compliance.aml.services.scans import scan, scan_transaction
from compliance.aml.tests.engine.helpers import NOON, make_rule, tx

SINCE = NOON - dt.timedelta(days=1)
UNTIL = NOON + dt.timedelta(days=1)


@pytest.fixture
def mlro(db):
    return StaffFactory(role="MLRO")


def snooze(rule, user, mlro, *, days=7):
    return rule_snooze(
        rule=rule, user=user, actor=mlro, expires_at=timezone.now() + dt.timedelta(days=days), reason="Salary top-ups"
    )


def test_the_batch_scan_skips_the_snoozed_user_only(user, other, mlro):
    rule = make_rule("threshold", thresholdAmount=1000)
    other_rule = make_rule("threshold", thresholdAmount=2000)
    tx(user, 5000)
    tx(other, 5000, minutes=1)
    snooze(rule, user, mlro)
    scan(since=SINCE, until=UNTIL)
    assert set(Alert.objects.filter(rule=rule).values_list("user_id", flat=True)) == {other.pk}
    # the snooze is for one rule: the user's other rule still raises
    assert set(Alert.objects.filter(rule=other_rule).values_list("user_id", flat=True)) == {user.pk, other.pk}
    entry = AuditLog.objects.get(action="aml_rule.snooze")
    assert entry.changes["reason"] == "Salary top-ups" and entry.changes["user"] == str(user.pk)


def test_record_time_screening_skips_the_snoozed_user(user, mlro):
    rule = make_rule("threshold", thresholdAmount=1000)
    snooze(rule, user, mlro)
    row = tx(user, 5000)
    scan_transaction(row.pk)
    assert not Alert.objects.filter(rule=rule).exists()


def test_after_expiry_the_rule_raises_again(user, mlro):
    rule = make_rule("threshold", thresholdAmount=1000)
    held = snooze(rule, user, mlro)
    row = tx(user, 5000)
    scan_transaction(row.pk)
    assert not Alert.objects.exists()
    # time passes: the snooze's expiry is now behind us
    RuleSnooze.objects.filter(pk=held.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    scan_transaction(row.pk)
    assert Alert.objects.filter(rule=rule, user=user).count() == 1


def test_ending_a_snooze_early(user, mlro):
    rule = make_rule("threshold", thresholdAmount=1000)
    held = snooze(rule, user, mlro)
    tx(user, 5000)
    scan(since=SINCE, until=UNTIL)
    assert not Alert.objects.exists()
    rule_snooze_end(snooze=held, actor=mlro)
    scan(since=SINCE, until=UNTIL)
    assert Alert.objects.filter(rule=rule, user=user).count() == 1
    with pytest.raises(Conflict):
        rule_snooze_end(snooze=held, actor=mlro)


def test_a_snooze_needs_a_reason_and_a_future_expiry(user, mlro):
    rule = make_rule("threshold", thresholdAmount=1000)
    with pytest.raises(ValidationFailed) as err:
        rule_snooze(rule=rule, user=user, actor=mlro, expires_at=timezone.now() - dt.timedelta(hours=1), reason=" ")
    assert set(err.value.details) == {"reason", "expiresAt"}
    assert not RuleSnooze.objects.exists()
