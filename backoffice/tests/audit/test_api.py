"""GET /admin/audit-logs and /admin/audit-logs/verify: admins and MLROs, newest first, the contract's filters."""

import pytest

from backoffice.audit import audit_record
from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.audit.helpers import write_entries

pytestmark = pytest.mark.django_db

URL = "/api/v1/admin/audit-logs"


@pytest.mark.parametrize("role", [StaffRole.ADMIN, StaffRole.MLRO])
def test_admins_and_mlros_read_the_log_newest_first(staff_client, role):
    client, staff = staff_client(role)
    write_entries(3, actor=staff)
    body = client.get(URL).json()
    assert body["success"] is True
    rows = body["data"]
    assert [r["sequence"] for r in rows] == [3, 2, 1]
    first = rows[0]
    assert set(first) >= {"id", "sequence", "actor", "action", "objectType", "objectId", "changes", "ipAddress"}
    assert set(first) >= {"createdAt", "hash"}
    assert first["actor"] == {"id": str(staff.pk), "email": staff.email}
    assert first["hash"] == AuditLog.objects.get(sequence=3).hash
    assert body["pagination"]["total"] == 3 if "pagination" in body else True


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.COMPLIANCE_OFFICER, StaffRole.FINANCE])
def test_other_roles_are_refused(staff_client, role):
    client, _ = staff_client(role)
    for path in (URL, URL + "/verify"):
        response = client.get(path)
        assert response.status_code == 403 and response.json()["error"]["code"] == "FORBIDDEN"


def test_filters(staff_client):
    client, staff = staff_client(StaffRole.ADMIN)
    other, _ = staff_client(StaffRole.MLRO)
    audit_record(actor=staff, action="a.one", object_type="kind_a", object_id="1")
    audit_record(actor=None, action="a.two", object_type="kind_b", object_id="2")

    def sequences(**params):
        return [r["sequence"] for r in client.get(URL, params).json()["data"]]

    assert sequences(actorId=str(staff.pk)) == [1]
    assert sequences(action="a.two") == [2]
    assert sequences(objectType="kind_a", objectId="1") == [1]
    assert sequences(startDate="2000-01-01", endDate="2000-01-02") == []
    bad = client.get(URL, {"actorId": "not-a-uuid"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "VALIDATION_ERROR"


def test_verify_answers_the_walk(staff_client):
    client, staff = staff_client(StaffRole.MLRO)
    write_entries(2, actor=staff)
    data = client.get(URL + "/verify").json()["data"]
    head = AuditLog.objects.get(sequence=2)
    assert data == {"intact": True, "entries": 2, "head": {"sequence": 2, "hash": head.hash}, "firstBroken": None}
    AuditLog.objects.filter(sequence=1).update(object_id="changed")
    data = client.get(URL + "/verify").json()["data"]
    assert data["intact"] is False
    assert data["firstBroken"]["sequence"] == 1 and data["firstBroken"]["reason"] == "CHANGED"
