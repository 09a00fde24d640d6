"""Admin smoke tests: the triage queue and rule pages open for compliance roles only; actions use services."""

import pytest
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.rules import AMLRule


def _login(role):
    staff = StaffFactory(role=role)
    client = Client()
    client.force_login(staff)
    return client, staff


@pytest.mark.parametrize("role", [StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN])
def test_compliance_roles_open_the_queue_rules_and_an_alert(db, make_alert, role):
    alert = make_alert(severity="CRITICAL")
    client, _ = _login(role)
    assert client.get("/admin/compliance/alert/").status_code == 200
    assert client.get(f"/admin/compliance/alert/{alert.pk}/change/").status_code == 200
    assert client.get("/admin/compliance/amlrule/").status_code == 200
    assert client.get("/admin/").status_code == 200


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_cannot_open_alerts_or_rules(db, make_alert, role):
    alert = make_alert()
    client, _ = _login(role)
    assert client.get("/admin/compliance/alert/").status_code == 403
    assert client.get(f"/admin/compliance/alert/{alert.pk}/change/").status_code == 403
    assert client.get("/admin/compliance/amlrule/").status_code == 403
    assert "Open critical alerts" not in client.get("/admin/").content.decode()


def test_dashboard_shows_open_alerts_by_severity_to_officers(db, make_alert):
    make_alert(severity="CRITICAL")
    client, _ = _login(StaffRole.COMPLIANCE_OFFICER)
    assert "Open critical alerts" in client.get("/admin/").content.decode()


def test_assign_to_me_and_close_as_false_positive_actions(db, make_alert):
    alert = make_alert()
    client, staff = _login(StaffRole.COMPLIANCE_OFFICER)
    url = "/admin/compliance/alert/"
    confirm = client.post(url, {"action": "assign_to_me", "_selected_action": [alert.pk]})
    assert confirm.status_code == 200 and "Assign to me: 1 alert(s)" in confirm.content.decode()
    client.post(url, {"action": "assign_to_me", "_selected_action": [alert.pk], "apply": "1"})
    alert.refresh_from_db()
    assert alert.assigned_to == staff
    close = {"action": "close_false_positive", "_selected_action": [alert.pk], "apply": "1"}
    client.post(url, {**close, "note": "Payroll"})  # no reason code: nothing happens
    alert.refresh_from_db()
    assert alert.status == "OPEN"
    client.post(url, {**close, "note": "Payroll", "reason_code": "EXPLAINED_ACTIVITY"})
    alert.refresh_from_db()
    assert alert.status == "CLOSED_FALSE_POSITIVE" and alert.close_reason_code == "EXPLAINED_ACTIVITY"
    assert alert.events.count() == 2


def test_the_alert_page_triage_asks_before_acting_on_a_colleagues_alert(db, make_alert):
    colleague = StaffFactory(role=StaffRole.MLRO)
    alert = make_alert(assigned_to=colleague)
    client, _ = _login(StaffRole.COMPLIANCE_OFFICER)
    url = f"/admin/compliance/alert/{alert.pk}/triage/"
    page = client.get(f"/admin/compliance/alert/{alert.pk}/change/").content.decode()
    assert 'data-testid="assigned-warning"' in page
    client.post(url, {"op": "start_review"})
    alert.refresh_from_db()
    assert alert.status == "OPEN"
    client.post(url, {"op": "start_review", "confirm_others": "1"})
    alert.refresh_from_db()
    assert alert.status == "UNDER_REVIEW" and alert.assigned_to == colleague


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_cannot_triage(db, make_alert, role):
    alert = make_alert()
    client, _ = _login(role)
    response = client.post(f"/admin/compliance/alert/{alert.pk}/triage/", {"op": "start_review"})
    assert response.status_code in (302, 403)
    alert.refresh_from_db()
    assert alert.status == "OPEN"


def test_officer_reads_rules_but_cannot_change_them(db, rule):
    client, _ = _login(StaffRole.COMPLIANCE_OFFICER)
    page = client.get(f"/admin/compliance/amlrule/{rule.pk}/change/")
    assert page.status_code == 200
    client.post("/admin/compliance/amlrule/", {"action": "toggle_selected", "_selected_action": [rule.pk]})
    rule.refresh_from_db()
    assert rule.is_active is True and rule.version == 3


def test_mlro_toggles_rules_from_the_list_as_a_new_version(db, rule):
    client, _ = _login(StaffRole.MLRO)
    client.post(
        "/admin/compliance/amlrule/",
        {"action": "toggle_selected", "_selected_action": [rule.pk], "apply": "1", "reason": "Retired"},
    )
    rule.refresh_from_db()
    assert rule.is_active is False and rule.version == 4


def test_mlro_edits_a_rule_in_the_admin_through_the_service(db, rule):
    client, _ = _login(StaffRole.MLRO)
    r = client.post(
        f"/admin/compliance/amlrule/{rule.pk}/change/",
        {
            "name": "Renamed",
            "description": "",
            "category": "",
            "severity": "HIGH",
            "priority": 5,
            "is_active": "on",
            "param_thresholdAmount": "20",
            "actions": "{}",
            "reason": "Clearer name",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    rule.refresh_from_db()
    assert rule.name == "Renamed" and rule.version == 4 and rule.versions.filter(version=4).exists()


def test_admin_refuses_bad_conditions_with_the_parameter_named(db, rule):
    client, _ = _login(StaffRole.MLRO)
    r = client.post(
        f"/admin/compliance/amlrule/{rule.pk}/change/",
        {
            "name": "x",
            "severity": "HIGH",
            "priority": 5,
            "actions": "{}",
            "reason": "Test",
        },
    )
    assert r.status_code == 200 and "thresholdAmount" in r.content.decode()
    assert AMLRule.objects.get(pk=rule.pk).version == 3


def test_file_a_sar_action_needs_exactly_one_alert(db, make_alert):
    alerts = [make_alert(), make_alert()]
    client, _ = _login(StaffRole.COMPLIANCE_OFFICER)
    r = client.post(
        "/admin/compliance/alert/", {"action": "file_sar", "_selected_action": [a.pk for a in alerts]}, follow=True
    )
    assert "Select exactly one alert" in r.content.decode()


def test_the_queue_hides_closed_alerts_unless_asked(db, make_alert):
    open_alert = make_alert(user=None)
    closed = make_alert(status="CLOSED_FALSE_POSITIVE")
    client, _ = _login(StaffRole.COMPLIANCE_OFFICER)
    default = client.get("/admin/compliance/alert/").content.decode()
    assert str(open_alert.pk) in default and str(closed.pk) not in default
    assert str(closed.pk) in client.get("/admin/compliance/alert/?queue=closed").content.decode()
    assert str(closed.pk) in client.get("/admin/compliance/alert/?queue=all").content.decode()


def test_admin_refuses_an_action_that_is_not_alert_hold_or_block(db, rule):
    client, _ = _login(StaffRole.MLRO)
    r = client.post(
        f"/admin/compliance/amlrule/{rule.pk}/change/",
        {
            "name": "x",
            "severity": "HIGH",
            "priority": 5,
            "on_hit": "FREEZE",
            "param_thresholdAmount": "5",
            "reason": "Test",
        },
    )
    assert r.status_code == 200 and "Select a valid choice" in r.content.decode()
    assert AMLRule.objects.get(pk=rule.pk).version == 3


def test_an_mlro_makes_a_rule_hold_or_block_in_the_admin(db, rule):
    client, _ = _login(StaffRole.MLRO)
    form = {
        "name": "x",
        "description": "",
        "category": "",
        "severity": "HIGH",
        "priority": 5,
        "is_active": "on",
        "param_thresholdAmount": "5",
        "create_alert": "on",
        "reason": "Large single payments wait for review",
    }
    r = client.post(f"/admin/compliance/amlrule/{rule.pk}/change/", {**form, "on_hit": "HOLD"})
    assert r.status_code == 302
    assert AMLRule.objects.get(pk=rule.pk).hit_action == "HOLD"
    listing = client.get("/admin/compliance/amlrule/").content.decode()
    assert "Hold for review" in listing


def test_the_queue_is_searched_by_what_it_shows_the_rule_s_name_among_it(db, make_alert):
    from compliance.aml.tests.factories import AlertFactory, AMLRuleFactory

    found = make_alert()  # rule T-THR "Big one"
    other = AlertFactory(rule=AMLRuleFactory(rule_id="T-OTHER", name="Rapid movement"), details={"why": "test"})
    client, _ = _login(StaffRole.COMPLIANCE_OFFICER)
    for query in ("big one", "T-THR"):
        page = client.get("/admin/compliance/alert/", {"q": query}).content.decode()
        assert f"/admin/compliance/alert/{found.pk}/change/" in page, query
        assert f"/admin/compliance/alert/{other.pk}/change/" not in page, query
    page = client.get("/admin/compliance/alert/", {"q": "rapid"}).content.decode()
    assert f"/admin/compliance/alert/{other.pk}/change/" in page
    assert f"/admin/compliance/alert/{found.pk}/change/" not in page
