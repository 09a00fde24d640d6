import pytest

from backoffice.models import AuditLog
from compliance.aml.models.alerts import AlertEvent

URL = "/api/v1/admin/aml/alerts"


def test_officer_moves_an_alert_with_a_note(officer, make_alert):
    alert = make_alert()
    client, staff = officer
    r = client.put(f"{URL}/{alert.pk}/status", {"status": "UNDER_REVIEW", "note": "Looking at it"}, format="json")
    assert r.status_code == 200, r.json()
    data = r.json()["data"]
    assert data["status"] == "UNDER_REVIEW"
    assert data["events"][0]["fromStatus"] == "OPEN" and data["events"][0]["note"] == "Looking at it"
    event = AlertEvent.objects.get(alert=alert)
    assert event.actor == staff and event.to_status == "UNDER_REVIEW"
    assert AuditLog.objects.filter(action="alert.status", object_id=str(alert.pk), actor=staff).exists()


@pytest.mark.parametrize("role", ["compliance_officer", "mlro", "admin"])
def test_compliance_roles_may_manage_alerts(staff_client, make_alert, role):
    alert = make_alert()
    client, _ = staff_client(role)
    r = client.put(f"{URL}/{alert.pk}/status", {"status": "ESCALATED"}, format="json")
    assert r.status_code == 200


def test_closing_needs_a_note(officer, make_alert):
    alert = make_alert()
    client, _ = officer
    r = client.put(f"{URL}/{alert.pk}/status", {"status": "CLOSED_SAR_FILED"}, format="json")
    assert r.status_code == 400 and "note" in r.json()["error"]["details"]
    alert.refresh_from_db()
    assert alert.status == "OPEN" and not AlertEvent.objects.exists()


@pytest.mark.parametrize("closed", ["CLOSED_FALSE_POSITIVE", "CLOSED_SAR_FILED"])
@pytest.mark.parametrize("target", ["UNDER_REVIEW", "ESCALATED", "CLOSED_FALSE_POSITIVE"])
def test_a_closed_alert_moves_only_back_to_open(officer, make_alert, closed, target):
    alert = make_alert(status=closed)
    client, _ = officer
    body = {"status": target, "note": "oops", "reasonCode": "OTHER"}
    r = client.put(f"{URL}/{alert.pk}/status", body, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "INVALID_TRANSITION"
    assert r.json()["message"] == f"Cannot move alert from {closed} to {target}"


def test_moving_to_the_same_status_is_409(officer, make_alert):
    alert = make_alert()
    client, _ = officer
    assert client.put(f"{URL}/{alert.pk}/status", {"status": "OPEN"}, format="json").status_code == 409


@pytest.mark.parametrize("body", [{}, {"status": "DONE"}, {"status": "ESCALATED", "note": "x" * 2001}])
def test_bad_bodies_are_400(officer, make_alert, body):
    alert = make_alert()
    client, _ = officer
    assert client.put(f"{URL}/{alert.pk}/status", body, format="json").status_code == 400


def test_unknown_alert_is_404(officer):
    client, _ = officer
    r = client.put(f"{URL}/00000000-0000-0000-0000-000000000000/status", {"status": "OPEN"}, format="json")
    assert r.status_code == 404 and r.json()["message"] == "Alert not found"
