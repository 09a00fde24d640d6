"""Case work on alerts through the API: reason codes, reopening, the assignee endpoint."""

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import AlertEvent

URL = "/api/v1/admin/aml/alerts"


def put_status(client, alert, **body):
    return client.put(f"{URL}/{alert.pk}/status", body, format="json")


def test_closing_as_false_positive_needs_a_reason_code(officer, make_alert):
    alert = make_alert()
    client, _ = officer
    r = put_status(client, alert, status="CLOSED_FALSE_POSITIVE", note="Salary paid in cash")
    assert r.status_code == 400 and "reasonCode" in r.json()["error"]["details"]
    alert.refresh_from_db()
    assert alert.status == "OPEN"


def test_an_unknown_reason_code_is_400(officer, make_alert):
    alert = make_alert()
    client, _ = officer
    r = put_status(client, alert, status="CLOSED_FALSE_POSITIVE", note="x", reasonCode="BECAUSE")
    assert r.status_code == 400 and "reasonCode" in r.json()["error"]["details"]


@pytest.mark.parametrize(
    "code", ["EXPLAINED_ACTIVITY", "KNOWN_CUSTOMER_PATTERN", "DATA_ERROR", "DUPLICATE_ALERT", "OTHER"]
)
def test_false_positive_keeps_its_reason_code(officer, make_alert, code):
    alert = make_alert()
    client, staff = officer
    r = put_status(client, alert, status="CLOSED_FALSE_POSITIVE", note="Known payroll", reasonCode=code)
    assert r.status_code == 200, r.json()
    data = r.json()["data"]
    assert data["status"] == "CLOSED_FALSE_POSITIVE" and data["closeReasonCode"] == code
    assert data["closedAt"] is not None
    assert data["events"][-1]["reasonCode"] == code
    entry = AuditLog.objects.get(action="alert.status", object_id=str(alert.pk))
    assert entry.changes["reason_code"] == code and entry.actor == staff


@pytest.mark.parametrize("closed", ["CLOSED_FALSE_POSITIVE", "CLOSED_SAR_FILED"])
def test_a_closed_alert_reopens_with_a_note(officer, make_alert, closed):
    alert = make_alert(status=closed, close_reason_code="OTHER" if closed == "CLOSED_FALSE_POSITIVE" else "")
    client, staff = officer
    assert put_status(client, alert, status="OPEN").status_code == 400
    r = put_status(client, alert, status="OPEN", note="New transfers from the same senders")
    assert r.status_code == 200, r.json()
    data = r.json()["data"]
    assert data["status"] == "OPEN" and data["closeReasonCode"] is None and data["closedAt"] is None
    event = AlertEvent.objects.get(alert=alert)
    assert (event.from_status, event.to_status, event.actor) == (closed, "OPEN", staff)
    assert AuditLog.objects.filter(action="alert.reopen", object_id=str(alert.pk)).exists()


def test_records_carry_the_assignee(officer, make_alert):
    assignee = StaffFactory(role=StaffRole.MLRO, first_name="Sipho", last_name="Dube")
    alert = make_alert(assigned_to=assignee)
    make_alert()
    client, _ = officer
    items = client.get(URL).json()["data"]
    by_id = {item["id"]: item for item in items}
    assert by_id[str(alert.pk)]["assignee"] == {"id": str(assignee.pk), "firstName": "Sipho", "lastName": "Dube"}
    assert [item["assignee"] for item in items if item["id"] != str(alert.pk)] == [None]
    detail = client.get(f"{URL}/{alert.pk}").json()["data"]
    assert detail["assignee"]["id"] == str(assignee.pk)


def test_assign_and_unassign(officer, make_alert):
    alert = make_alert()
    colleague = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER, first_name="Lindiwe", last_name="Zwane")
    client, staff = officer
    r = client.put(f"{URL}/{alert.pk}/assignee", {"assigneeId": str(colleague.pk)}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["data"]["assignee"]["firstName"] == "Lindiwe"
    assert r.json()["data"]["events"][-1]["note"] == "Assigned to Lindiwe Zwane"
    r = client.put(f"{URL}/{alert.pk}/assignee", {"assigneeId": None}, format="json")
    assert r.status_code == 200 and r.json()["data"]["assignee"] is None
    assert AuditLog.objects.filter(action="alert.assign", object_id=str(alert.pk), actor=staff).count() == 2


@pytest.mark.parametrize("bad", ["unknown", "inactive", "support", "garbage", "missing"])
def test_assigning_to_someone_who_cannot_take_it_is_400(officer, make_alert, bad):
    alert = make_alert()
    client, _ = officer
    body = {
        "unknown": {"assigneeId": "00000000-0000-0000-0000-000000000000"},
        "inactive": {"assigneeId": str(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER, is_active=False).pk)},
        "support": {"assigneeId": str(StaffFactory(role=StaffRole.SUPPORT).pk)},
        "garbage": {"assigneeId": "not-an-id"},
        "missing": {},
    }[bad]
    r = client.put(f"{URL}/{alert.pk}/assignee", body, format="json")
    assert r.status_code == 400, r.json()
    assert "assigneeId" in r.json()["error"]["details"]
    alert.refresh_from_db()
    assert alert.assigned_to is None


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_cannot_triage(staff_client, make_alert, role):
    alert = make_alert()
    client, _ = staff_client(role)
    colleague = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    assert client.put(f"{URL}/{alert.pk}/assignee", {"assigneeId": str(colleague.pk)}, format="json").status_code == 403
    bulk = {"ids": [str(alert.pk)], "action": "assign", "assigneeId": str(colleague.pk)}
    assert client.post(f"{URL}/bulk", bulk, format="json").status_code == 403


def test_a_null_reason_code_is_no_reason_code(officer, make_alert):
    alert = make_alert()
    client, _ = officer
    assert put_status(client, alert, status="ESCALATED", note="Senior eyes", reasonCode=None).status_code == 200
    r = put_status(client, alert, status="CLOSED_FALSE_POSITIVE", note="x", reasonCode=None)
    assert r.status_code == 400 and "reasonCode" in r.json()["error"]["details"]
