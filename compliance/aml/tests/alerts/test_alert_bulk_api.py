"""POST /admin/aml/alerts/bulk: one reason for many alerts; each alert succeeds or fails on its own."""

import uuid

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert

URL = "/api/v1/admin/aml/alerts/bulk"


def test_bulk_assign_reports_each_failure(officer, make_alert):
    open_alerts = [make_alert() for _ in range(3)]
    closed = make_alert(status="CLOSED_SAR_FILED")
    missing = str(uuid.uuid4())
    colleague = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    client, _ = officer
    ids = [str(a.pk) for a in open_alerts] + [str(closed.pk), missing]
    r = client.post(URL, {"ids": ids, "action": "assign", "assigneeId": str(colleague.pk)}, format="json")
    assert r.status_code == 200, r.json()
    data = r.json()["data"]
    assert (data["updated"], data["failed"]) == (3, 2)
    assert {e["id"]: e["message"] for e in data["errors"]} == {
        str(closed.pk): "A closed alert cannot be assigned",
        missing: "Alert not found",
    }
    assert Alert.objects.filter(assigned_to=colleague).count() == 3
    assert AuditLog.objects.filter(action="alert.bulk").get().changes["updated"] == 3


def test_bulk_close_with_one_reason(officer, make_alert):
    alerts = [make_alert(), make_alert(status="UNDER_REVIEW"), make_alert(status="CLOSED_FALSE_POSITIVE")]
    client, _ = officer
    body = {
        "ids": [str(a.pk) for a in alerts],
        "action": "close_false_positive",
        "reasonCode": "DUPLICATE_ALERT",
        "note": "Same burst as alert 1",
    }
    r = client.post(URL, body, format="json")
    assert r.status_code == 200
    assert (r.json()["data"]["updated"], r.json()["data"]["failed"]) == (2, 1)
    for alert in alerts[:2]:
        alert.refresh_from_db()
        assert (alert.status, alert.close_reason_code) == ("CLOSED_FALSE_POSITIVE", "DUPLICATE_ALERT")
        assert alert.events.last().note == "Same burst as alert 1"


def test_bulk_close_without_reason_or_note_changes_nothing(officer, make_alert):
    alert = make_alert()
    client, _ = officer
    for body in (
        {"ids": [str(alert.pk)], "action": "close_false_positive", "note": "x"},
        {"ids": [str(alert.pk)], "action": "close_false_positive", "reasonCode": "OTHER"},
        {"ids": [str(alert.pk)], "action": "close_false_positive", "reasonCode": "NOPE", "note": "x"},
    ):
        assert client.post(URL, body, format="json").status_code == 400
    alert.refresh_from_db()
    assert alert.status == "OPEN"


def test_more_than_500_ids_is_400(officer, make_alert):
    client, _ = officer
    ids = [str(uuid.uuid4()) for _ in range(501)]
    r = client.post(URL, {"ids": ids, "action": "assign", "assigneeId": None}, format="json")
    assert r.status_code == 400 and "ids" in r.json()["error"]["details"]


def test_bad_bulk_bodies_are_400(officer, make_alert):
    alert = make_alert()
    client, _ = officer
    for body in (
        {"ids": [str(alert.pk)], "action": "delete"},
        {"ids": [], "action": "assign", "assigneeId": None},
        {"ids": "all", "action": "assign", "assigneeId": None},
        {"ids": [str(alert.pk)], "action": "assign"},
        {"ids": [str(alert.pk)], "action": "assign", "assigneeId": str(uuid.uuid4())},
    ):
        assert client.post(URL, body, format="json").status_code == 400, body


def test_bulk_unassign(officer, make_alert):
    colleague = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    alert = make_alert(assigned_to=colleague)
    client, _ = officer
    r = client.post(URL, {"ids": [str(alert.pk)], "action": "assign", "assigneeId": None}, format="json")
    assert r.json()["data"] == {"updated": 1, "failed": 0, "errors": []}
    alert.refresh_from_db()
    assert alert.assigned_to is None
