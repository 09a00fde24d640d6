"""The AML batch scan as tasks (in-process here): rule by rule, each rule once, one scan per beat period;
alert counts at /metrics."""

import datetime as dt

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from backoffice.ops import periodic
from backoffice.ops.periodic import PERIOD_HEADER
from compliance.aml import tasks
from compliance.aml.models.alerts import Alert
from compliance.aml.models.scans import AMLScan
from compliance.aml.services import scans as services
from compliance.aml.tests.engine.helpers import NOON, make_rule, tx
from compliance.aml.tests.factories import AlertFactory

pytestmark = pytest.mark.django_db
SINCE, UNTIL = NOON - dt.timedelta(days=1), NOON + dt.timedelta(days=1)


@pytest.fixture
def two_rules(user):
    big = make_rule("threshold", thresholdAmount=100)
    bigger = make_rule("threshold", thresholdAmount=400)
    tx(user, 500)
    return big, bigger


def test_a_scan_runs_each_rule_once_and_completes(two_rules):
    row = services.aml_scan_start(since=SINCE, until=UNTIL)
    assert tasks.scan.apply((row.pk,)).get() == "COMPLETED"
    row.refresh_from_db()
    assert sorted(row.rules_done) == sorted(str(rule.pk) for rule in two_rules)
    assert (row.hits, row.alerts_created, row.errors) == (2, 2, 0)
    assert Alert.objects.count() == 2


def test_a_second_delivery_of_a_half_done_scan_goes_on_from_the_next_rule(two_rules, monkeypatch):
    first, second = two_rules
    row = services.aml_scan_start(since=SINCE, until=UNTIL, rules=[first, second])
    assert services.aml_scan_rule(scan_id=row.pk, rule_id=str(first.pk)) is True  # then the worker died
    ran = []
    real = services.scan
    monkeypatch.setattr(services, "scan", lambda **kw: ran.append(kw["rules"][0].pk) or real(**kw))
    assert tasks.scan.apply((row.pk,)).get() == "COMPLETED"
    assert ran == [second.pk]
    assert tasks.scan.apply((row.pk,)).get() == "COMPLETED"  # and once more: nothing runs
    assert ran == [second.pk]
    row.refresh_from_db()
    assert (row.hits, row.alerts_created) == (2, 2)


def test_one_period_makes_one_scan_however_often_it_is_sent(two_rules, settings):
    settings.AML_SCAN_LOOKBACK_SECONDS = int((timezone.now() - SINCE).total_seconds())  # back past the ledger's row
    headers = {PERIOD_HEADER: "aml-scan:1781092800"}
    first = tasks.periodic_scan.apply(headers=headers).get()
    again = tasks.periodic_scan.apply(headers=headers).get()
    assert first == again
    assert AMLScan.objects.count() == 1 and AMLScan.objects.get().status == "COMPLETED"
    assert Alert.objects.count() == 2


def test_the_next_period_scans_from_where_the_last_ended(two_rules, settings):
    settings.AML_SCAN_LOOKBACK_SECONDS = 3600
    first = AMLScan.objects.get(pk=tasks.periodic_scan.apply(headers={PERIOD_HEADER: "aml-scan:1"}).get())
    second = AMLScan.objects.get(pk=tasks.periodic_scan.apply(headers={PERIOD_HEADER: "aml-scan:2"}).get())
    assert timezone.now() - first.since >= dt.timedelta(seconds=3600)
    assert second.since == first.until and second.until >= first.until


def test_the_command_runs_the_scan_through_the_task(two_rules):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("run_aml_scan", "--since", "2026-06-09", "--until", "2026-06-11", stdout=out)
    assert "2 rules, 2 hits, 2 new alerts" in out.getvalue()
    row = AMLScan.objects.get()
    assert (row.trigger, row.status, row.period) == ("MANUAL", "COMPLETED", None)


def test_a_scan_with_no_active_rule_completes_at_once(db):
    row = services.aml_scan_start(since=SINCE, until=UNTIL)
    assert tasks.scan.apply((row.pk,)).get() == "COMPLETED"


def test_the_periodic_scan_is_registered_with_beat():
    entry = periodic.entries()["aml-scan"]
    assert entry.task == tasks.periodic_scan.name and entry.every >= 60


def test_alert_counts_are_at_metrics_by_status_and_severity(admin_client_api):
    AlertFactory(severity="HIGH")
    AlertFactory(severity="HIGH")
    AlertFactory(severity="LOW")
    response = admin_client_api.get("/metrics")
    assert response.status_code == 200
    families = {f.name: f for f in text_string_to_metric_families(response.content.decode())}
    samples = {(s.labels["status"], s.labels["severity"]): s.value for s in families["vikela_aml_alerts"].samples}
    assert samples[("OPEN", "HIGH")] == 2 and samples[("OPEN", "LOW")] == 1
    assert samples[("ESCALATED", "HIGH")] == 0
