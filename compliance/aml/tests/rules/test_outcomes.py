"""Outcomes per rule on crafted alerts: hits, false-positive and SAR rates, median time to close, review flags."""

import datetime as dt
import hashlib
import uuid

import pytest
from django.test import Client
from django.utils import timezone

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from compliance.aml.selectors.outcomes import rule_outcome_weeks, rule_outcomes
from kyc.tests.factories import PlatformUserFactory

NOW = timezone.now()


def rule_(rule_id, *, age_days=400, active=True):
    rule = AMLRule.objects.create(
        rule_id=rule_id,
        name=rule_id,
        rule_type="threshold",
        conditions={"ruleType": "threshold", "thresholdAmount": 10},
        is_active=active,
    )
    AMLRule.objects.filter(pk=rule.pk).update(created_at=NOW - dt.timedelta(days=age_days))
    rule.refresh_from_db()
    return rule


def alert(rule, *, status="OPEN", days_ago=1, hours_to_close=None):
    created = NOW - dt.timedelta(days=days_ago)
    row = Alert.objects.create(
        rule=rule,
        user=PlatformUserFactory(),
        status=status,
        dedup_key=hashlib.sha256(uuid.uuid4().bytes).hexdigest(),
        closed_at=created + dt.timedelta(hours=hours_to_close) if hours_to_close is not None else None,
    )
    Alert.objects.filter(pk=row.pk).update(created_at=created)
    return row


@pytest.fixture
def crafted(db):
    """R-NOISY: 4 false positives (closed after 2, 4, 6, 8 h), 1 SAR (after 30 h), 1 open; one FP 200 days ago.
    R-GOOD: 1 SAR (after 10 h), 1 false positive (after 20 h). R-IDLE: its last alert 120 days ago."""
    noisy, good, idle = rule_("R-NOISY"), rule_("R-GOOD"), rule_("R-IDLE")
    for hours in (2, 4, 6, 8):
        alert(noisy, status="CLOSED_FALSE_POSITIVE", hours_to_close=hours)
    alert(noisy, status="CLOSED_SAR_FILED", hours_to_close=30)
    alert(noisy)
    alert(noisy, status="CLOSED_FALSE_POSITIVE", days_ago=200, hours_to_close=1)
    alert(good, status="CLOSED_SAR_FILED", hours_to_close=10)
    alert(good, status="CLOSED_FALSE_POSITIVE", hours_to_close=20)
    alert(idle, status="CLOSED_FALSE_POSITIVE", days_ago=120, hours_to_close=1)
    return noisy, good, idle


def test_figures_over_ninety_days(crafted, settings):
    settings.RULE_REVIEW_FP_RATE = 0.7
    noisy, good, idle = crafted
    out = rule_outcomes([noisy, good, idle], since=NOW - dt.timedelta(days=90))
    n = out[noisy.pk]
    assert (n.hits, n.false_positives, n.sars, n.open) == (6, 4, 1, 1)
    assert n.false_positive_rate == pytest.approx(0.8) and n.sar_rate == pytest.approx(0.2)
    assert n.median_hours_to_close == pytest.approx(6.0)  # median of 2, 4, 6, 8, 30
    assert n.flags == ["False-positive rate 80% above 70%"]
    g = out[good.pk]
    assert (g.hits, g.false_positive_rate, g.sar_rate, g.median_hours_to_close) == (2, 0.5, 0.5, 15.0)
    assert g.flags == []
    i = out[idle.pk]
    assert i.hits == 0 and i.false_positive_rate is None and i.median_hours_to_close is None
    assert i.flags == ["No alert in 90 days"]


def test_a_longer_period_takes_older_alerts_in(crafted):
    noisy, _, idle = crafted
    out = rule_outcomes([noisy, idle], since=NOW - dt.timedelta(days=365))
    assert out[noisy.pk].hits == 7 and out[noisy.pk].false_positive_rate == pytest.approx(5 / 6)
    assert out[idle.pk].hits == 1


def test_new_and_inactive_rules_are_not_flagged_idle(db):
    young, off = rule_("R-YOUNG", age_days=10), rule_("R-OFF", active=False)
    out = rule_outcomes([young, off], since=NOW - dt.timedelta(days=90))
    assert out[young.pk].flags == [] and out[off.pk].flags == []


def test_weekly_series_for_the_chart(crafted):
    noisy, _, _ = crafted
    weeks = rule_outcome_weeks(noisy, since=NOW - dt.timedelta(days=28), until=NOW)
    assert len(weeks) == 4
    assert weeks[-1]["fp"] == 4 and weeks[-1]["sar"] == 1 and weeks[-1]["open"] == 1
    assert sum(w["fp"] + w["sar"] + w["open"] for w in weeks[:-1]) == 0


def test_the_admin_list_and_the_rule_page_show_them(crafted, settings):
    settings.RULE_REVIEW_FP_RATE = 0.7
    noisy, _, _ = crafted
    client = Client()
    client.force_login(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    page = client.get("/admin/compliance/amlrule/").content.decode()
    assert "80%" in page and "20%" in page and "6.0 h" in page
    assert "False-positive rate 80% above 70%" in page and "No alert in 90 days" in page
    year = client.get("/admin/compliance/amlrule/?period=365").content.decode()
    assert "83%" in year  # 5 of 6 closed over the year
    detail = client.get(f"/admin/compliance/amlrule/{noisy.pk}/change/").content.decode()
    assert 'data-testid="outcome-chart"' in detail and "6 hits; false positives 4; SARs 1; open 1" in detail


def test_the_list_costs_the_same_queries_for_three_rules_or_twelve(crafted):
    client = Client()
    client.force_login(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    client.get("/admin/compliance/amlrule/")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get("/admin/compliance/amlrule/")
    for i in range(9):
        alert(rule_(f"R-MORE-{i}"), status="CLOSED_FALSE_POSITIVE", hours_to_close=3)
    with CaptureQueriesContext(connection) as many:
        client.get("/admin/compliance/amlrule/")
    assert len(many.captured_queries) == len(few.captured_queries)
