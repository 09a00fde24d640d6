"""An officer triages alerts in a real browser: on the alert page, and in bulk from the queue."""

import hashlib

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _rule():
    return AMLRule.objects.create(
        rule_id="AML-NET-001",
        name="Many senders to one wallet",
        rule_type="network_analysis",
        conditions={"ruleType": "network_analysis", "minSenders": 5, "minTotalAmount": 30000, "timeWindowHours": 72},
        is_active=True,
    )


def _alert(rule, severity, name, **fields):
    user = PlatformUserFactory(first_name=name, last_name="Subject")
    alert = Alert.objects.create(
        rule=rule,
        rule_version=1,
        user=user,
        severity=severity,
        dedup_key=hashlib.sha256(name.encode()).hexdigest(),
        details={
            "ruleId": rule.rule_id,
            "ruleType": "network_analysis",
            "windowSeconds": 259200,
            "transfers": 5,
            "total": 32500.0,
            "minSenders": 5,
            "minTotalAmount": 30000.0,
        },
        **fields,
    )
    senders = [PlatformUserFactory(first_name=f"Sender{i}", last_name="Person") for i in range(5)]
    alert.related_transactions.set(
        [TransactionFactory(user=user, type="TRANSFER_IN", amount=6500, counterparty_user=s) for s in senders]
    )
    return alert


def test_triage_on_the_alert_page(page, live_server):  # noqa: F811
    officer = StaffFactory(
        email="nomsa@example.com", role=StaffRole.COMPLIANCE_OFFICER, first_name="Nomsa", last_name="Dube"
    )
    colleague = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER, first_name="Sipho", last_name="Zwane")
    alert = _alert(_rule(), "HIGH", "Thabo")
    sign_in(page, live_server, officer.email, PASSWORD)
    page.goto(f"{live_server.url}/admin/compliance/alert/{alert.pk}/change/")

    finding = page.get_by_test_id("finding").inner_text()
    assert finding == "5 senders sent SZL 32,500.00 within 72 hours in 5 transfers."
    assert "Rule: at least 5 senders and SZL 30,000.00 within 72 hours." in page.inner_text("#alert-triage")
    assert page.locator(".vk-evidence table tbody tr").count() == 5
    assert "Sender0 Person" in page.inner_text(".vk-evidence table")

    page.get_by_role("button", name="Assign to me").click()
    page.wait_for_load_state()
    assert "Nomsa Dube (you)" in page.get_by_test_id("alert-assignee").inner_text()

    page.get_by_role("button", name="Start review").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("alert-status").inner_text().lower() == "under review"

    # closing needs a reason code and a note: without them nothing changes
    page.get_by_role("button", name="Close as false positive").click()
    page.wait_for_load_state()
    alert.refresh_from_db()
    assert alert.status == "UNDER_REVIEW"
    page.select_option("#triage-reason", "KNOWN_CUSTOMER_PATTERN")
    page.fill("#triage-note", "Monthly stokvel contributions from the same five members")
    page.get_by_role("button", name="Close as false positive").click()
    page.wait_for_load_state()
    alert.refresh_from_db()
    assert (alert.status, alert.close_reason_code) == ("CLOSED_FALSE_POSITIVE", "KNOWN_CUSTOMER_PATTERN")
    history = page.inner_text(".vk-history")
    assert "Nomsa Dube closed the alert as a false positive (known customer pattern)" in history

    page.fill("#triage-note", "A sixth sender appeared")
    page.get_by_role("button", name="Reopen").click()
    page.wait_for_load_state()
    alert.refresh_from_db()
    assert alert.status == "OPEN" and "Nomsa Dube reopened the alert" in page.inner_text(".vk-history")

    # an alert assigned to someone else: a warning, and nothing happens until it is confirmed
    page.wait_for_load_state("networkidle")  # no request of the page still reading while this thread writes
    Alert.objects.filter(pk=alert.pk).update(assigned_to=colleague)
    page.reload()
    assert "assigned to Sipho Zwane" in page.get_by_test_id("assigned-warning").inner_text()
    page.get_by_role("checkbox", name="I act on this alert although it is assigned to someone else").check()
    page.get_by_role("button", name="Escalate").click()
    page.wait_for_load_state()
    alert.refresh_from_db()
    assert alert.status == "ESCALATED" and alert.assigned_to == colleague


def test_bulk_assign_and_close_from_the_queue(page, live_server):  # noqa: F811
    officer = StaffFactory(email="nomsa@example.com", role=StaffRole.COMPLIANCE_OFFICER, first_name="Nomsa")
    colleague = StaffFactory(role=StaffRole.MLRO, first_name="Lindiwe", last_name="Zwane")
    rule = _rule()
    low = _alert(rule, "LOW", "Lowly")
    critical = _alert(rule, "CRITICAL", "Urgent")
    held = _alert(rule, "MEDIUM", "Held", assigned_to=colleague)
    sign_in(page, live_server, officer.email, PASSWORD)

    page.get_by_role("link", name="Alerts", exact=True).first.click()
    page.wait_for_url("**/admin/compliance/alert/")
    rows = page.locator("#result_list tbody tr")
    assert "Urgent" in rows.nth(0).inner_text() and "Lowly" in rows.nth(2).inner_text()

    rows.nth(0).locator("input.action-select").check()
    rows.nth(2).locator("input.action-select").check()
    page.select_option("select[name=action]", "assign_to_colleague")
    page.click(".actions button, button[name=index]")
    page.wait_for_load_state()
    page.select_option("select[name=assignee]", str(colleague.pk))
    page.get_by_role("button", name="Assign to a colleague").click()
    page.wait_for_load_state()
    critical.refresh_from_db()
    low.refresh_from_db()
    assert critical.assigned_to == colleague and low.assigned_to == colleague

    for row in range(3):
        page.locator("#result_list tbody tr").nth(row).locator("input.action-select").check()
    page.select_option("select[name=action]", "close_false_positive")
    page.click(".actions button, button[name=index]")
    page.wait_for_load_state()
    assert "3 of these alerts are assigned to someone else" in page.get_by_test_id("assigned-warning").inner_text()
    page.select_option("select[name=reason_code]", "DUPLICATE_ALERT")
    page.fill("textarea[name=note]", "One burst, one story")
    page.get_by_role("button", name="Close as false positive").click()
    page.wait_for_load_state()
    assert "confirm that you act on them anyway" in page.inner_text("body")
    page.get_by_role("checkbox", name="I act on them anyway").check()
    page.select_option("select[name=reason_code]", "DUPLICATE_ALERT")
    page.fill("textarea[name=note]", "One burst, one story")
    page.get_by_role("button", name="Close as false positive").click()
    page.wait_for_load_state()
    for alert in (low, critical, held):
        alert.refresh_from_db()
        assert (alert.status, alert.close_reason_code) == ("CLOSED_FALSE_POSITIVE", "DUPLICATE_ALERT")
