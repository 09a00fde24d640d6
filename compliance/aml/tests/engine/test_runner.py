"""The runner: alerts carry the rule version, are never duplicated, and a broken rule stops nothing."""

import datetime as dt

import pytest

from compliance.aml.models.alerts import Alert
from compliance.aml.services.rules import rule_update
from compliance.aml.services.scans import scan
from compliance.aml.tests.engine.helpers import NOON, make_rule, tx

SINCE = NOON - dt.timedelta(days=1)
UNTIL = NOON + dt.timedelta(days=1)


def test_a_scan_raises_one_alert_per_hit_with_rule_version_and_transactions(user):
    rule = make_rule("threshold", thresholdAmount=1000)
    rows = [tx(user, 5000), tx(user, 7000, minutes=5)]
    result = scan(since=SINCE, until=UNTIL)
    assert result.alerts_created == 2
    alerts = Alert.objects.filter(rule=rule)
    assert {a.rule_version for a in alerts} == {1} and {a.severity for a in alerts} == {"HIGH"}
    assert {a.related_transactions.get().pk for a in alerts} == {r.pk for r in rows}
    assert alerts[0].details["rule_id"] == rule.rule_id


def test_scanning_again_changes_nothing(user):
    make_rule("threshold", thresholdAmount=1000)
    make_rule("structuring", thresholdAmount=2000, thresholdCount=2, timeWindowHours=1)
    tx(user, 1500)
    tx(user, 900, minutes=10)
    first = scan(since=SINCE, until=UNTIL)
    assert first.alerts_created == 2
    again = scan(since=SINCE, until=UNTIL)
    assert again.hits == 2 and again.alerts_created == 0
    assert Alert.objects.count() == 2


def test_a_new_version_of_the_rule_does_not_re_raise_old_hits_but_new_alerts_carry_it(user):
    rule = make_rule("threshold", thresholdAmount=1000)
    tx(user, 5000)
    scan(since=SINCE, until=UNTIL)
    rule = rule_update(rule=rule, actor=None, changes={"severity": "CRITICAL"})
    tx(user, 6000, minutes=1)
    assert scan(since=SINCE, until=UNTIL).alerts_created == 1
    assert sorted(Alert.objects.values_list("rule_version", "severity")) == [(1, "HIGH"), (2, "CRITICAL")]


def test_inactive_and_log_only_rules_raise_no_alerts(user):
    make_rule("threshold", thresholdAmount=1).__class__.objects.update(is_active=False)
    quiet = make_rule("threshold", thresholdAmount=1)
    quiet.actions = {"createAlert": False}
    quiet.save()
    tx(user, 5000)
    result = scan(since=SINCE, until=UNTIL)
    assert result.rules == 1 and result.hits == 1 and result.alerts_created == 0
    assert not Alert.objects.exists()


def test_a_broken_rule_is_reported_and_the_others_still_run(user):
    broken = make_rule("threshold", thresholdAmount=1)
    broken.__class__.objects.filter(pk=broken.pk).update(conditions={"ruleType": "threshold"})
    make_rule("threshold", thresholdAmount=1)
    tx(user, 5000)
    result = scan(since=SINCE, until=UNTIL)
    assert result.errors == 1 and result.alerts_created == 1


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_batch_statement_sorts_in_memory_without_jit(postgres_only):
    from django.db import connection, transaction

    from compliance.aml.engine.runner import batch_session

    with transaction.atomic():
        batch_session()
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('work_mem'), current_setting('jit')")
            assert cursor.fetchone() == ("128MB", "off")
