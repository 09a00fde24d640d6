"""An officer works the alert queue in a real browser: most severe first, assign to me, close."""

import hashlib

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.models import Alert, AMLRule
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _alert(rule, severity, name):
    user = PlatformUserFactory(first_name=name, last_name="Subject")
    return Alert.objects.create(
        rule=rule,
        rule_version=1,
        user=user,
        severity=severity,
        dedup_key=hashlib.sha256(name.encode()).hexdigest(),
        details={"ruleId": rule.rule_id},
    )


def test_officer_assigns_and_closes_an_alert_from_the_queue(page, live_server, tmp_path):  # noqa: F811
    officer = StaffFactory(email="nomsa@example.com", role=StaffRole.COMPLIANCE_OFFICER, first_name="Nomsa")
    rule = AMLRule.objects.create(
        rule_id="AML-STR-001",
        name="Split deposits",
        rule_type="structuring",
        conditions={"ruleType": "structuring", "thresholdAmount": 1, "thresholdCount": 2, "timeWindowHours": 1},
        is_active=True,
    )
    low = _alert(rule, "LOW", "Lowly")
    critical = _alert(rule, "CRITICAL", "Urgent")
    sign_in(page, live_server, "nomsa@example.com", PASSWORD)
    assert "Open critical alerts" in page.inner_text("body")

    page.click("text=Alert queue")
    page.wait_for_url("**/admin/compliance/alert/")
    rows = page.locator("#result_list tbody tr")
    assert "Urgent" in rows.nth(0).inner_text() and "Lowly" in rows.nth(1).inner_text()

    rows.nth(0).locator("input.action-select").check()
    page.select_option("select[name=action]", "assign_to_me")
    page.click("button[name=index], button[type=submit][title], .actions button")
    page.wait_for_load_state()
    assert "assigned to you" in page.inner_text("body")
    critical.refresh_from_db()
    assert critical.assigned_to == officer

    page.locator("#result_list tbody tr").nth(0).locator("input.action-select").check()
    page.select_option("select[name=action]", "close_false_positive")
    page.click("button[name=index], button[type=submit][title], .actions button")
    page.wait_for_load_state()
    critical.refresh_from_db()
    low.refresh_from_db()
    assert critical.status == "CLOSED_FALSE_POSITIVE" and low.status == "OPEN"
    page.screenshot(path=str(tmp_path / "queue.png"), full_page=True)


def test_officer_reads_an_alert_with_its_transactions_and_history(page, live_server, tmp_path):  # noqa: F811
    StaffFactory(email="nomsa@example.com", role=StaffRole.COMPLIANCE_OFFICER)
    rule = AMLRule.objects.create(
        rule_id="AML-THR-001",
        name="Large single transaction",
        rule_type="threshold",
        conditions={"ruleType": "threshold", "thresholdAmount": 50000},
        is_active=True,
    )
    alert = _alert(rule, "HIGH", "Big")
    sign_in(page, live_server, "nomsa@example.com", PASSWORD)
    page.goto(f"{live_server.url}/admin/compliance/alert/{alert.pk}/change/")
    body = page.inner_text("body")
    assert "AML-THR-001" in body and "Big Subject" in body
    assert "File a SAR" in body
    page.screenshot(path=str(tmp_path / "alert.png"), full_page=True)
    page.goto(f"{live_server.url}/admin/")
    page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
    page.goto(f"{live_server.url}/admin/compliance/amlrule/{rule.pk}/change/")
    page.screenshot(path=str(tmp_path / "rule.png"), full_page=True)
