"""PUT /api/v1/admin/aml/sars/:sarId/status: the workflow over HTTP, with the contract's status codes."""

import uuid

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SARTransition
from compliance.sars.tests.sar.helpers import client_for

STATUS_KEYS = {"id", "sarId", "status", "reviewedAt", "reviewedBy", "approvedAt", "approvedBy", "submittedAt"}


def url(ref):
    return f"/api/v1/admin/aml/sars/{ref}/status"


def put(client, ref, status, **extra):
    return client.put(url(ref), {"status": status, **extra}, format="json")


def test_the_full_workflow_over_http(clients, crew, make_sar):
    sar = make_sar()
    r = put(clients["filer"], sar.pk, "PENDING_REVIEW")
    assert r.status_code == 200, r.content
    b = r.json()
    assert b["message"] == "SAR status updated"
    assert set(b["data"]) == STATUS_KEYS
    assert b["data"]["reviewedBy"] is None and b["data"]["reviewedAt"] is None

    r = put(clients["reviewer"], sar.sar_id, "PENDING_APPROVAL", reviewedBy=str(crew["reviewer"].pk))
    assert r.status_code == 200, r.content
    assert r.json()["data"]["reviewedBy"] == str(crew["reviewer"].pk) and r.json()["data"]["reviewedAt"]

    r = put(clients["approver"], sar.pk, "SUBMITTED", approvedBy=str(crew["approver"].pk))
    data = r.json()["data"]
    assert data["status"] == "SUBMITTED" and data["approvedBy"] == str(crew["approver"].pk)
    assert data["approvedAt"] and data["submittedAt"]

    for status in ("ACKNOWLEDGED", "UNDER_INVESTIGATION", "CLOSED"):
        assert put(clients["approver"], sar.pk, status).json()["data"]["status"] == status
    assert SARTransition.objects.filter(sar=sar).count() == 6


def test_acknowledged_can_close_directly(clients, make_sar):
    sar = make_sar(SARStatus.ACKNOWLEDGED)
    moves = SARTransition.objects.filter(sar=sar).count()
    r = put(clients["approver"], sar.pk, "CLOSED")
    assert r.status_code == 200 and r.json()["data"]["status"] == "CLOSED"
    sar.refresh_from_db()
    last = SARTransition.objects.filter(sar=sar).order_by("-created_at", "-id").first()
    assert sar.status == SARStatus.CLOSED and SARTransition.objects.filter(sar=sar).count() == moves + 1
    assert (last.from_status, last.to_status) == ("ACKNOWLEDGED", "CLOSED")


def test_a_move_outside_the_table_is_409_invalid_transition(clients, make_sar):
    sar = make_sar()
    r = put(clients["admin"], sar.pk, "SUBMITTED", approvedBy="whoever")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "INVALID_TRANSITION"
    assert r.json()["message"] == "Cannot move SAR from DRAFT to SUBMITTED"


def test_missing_reviewed_by_is_400_naming_it(clients, make_sar):
    sar = make_sar(SARStatus.PENDING_REVIEW)
    r = put(clients["reviewer"], sar.pk, "PENDING_APPROVAL")
    assert r.status_code == 400 and "reviewedBy" in r.json()["error"]["details"]


def test_missing_approved_by_is_400_naming_it(clients, make_sar):
    sar = make_sar(SARStatus.PENDING_APPROVAL)
    r = put(clients["approver"], sar.pk, "SUBMITTED")
    assert r.status_code == 400 and "approvedBy" in r.json()["error"]["details"]


def test_reviewed_by_naming_someone_else_is_403(clients, crew, make_sar):
    sar = make_sar(SARStatus.PENDING_REVIEW)
    r = put(clients["reviewer"], sar.pk, "PENDING_APPROVAL", reviewedBy=str(crew["admin"].pk))
    assert r.status_code == 403 and r.json()["error"]["code"] == "FORBIDDEN"


def test_the_filer_reviewing_their_own_report_is_403_four_eyes(clients, crew, make_sar):
    sar = make_sar(SARStatus.PENDING_REVIEW)
    r = put(clients["filer"], sar.pk, "PENDING_APPROVAL", reviewedBy=str(crew["filer"].pk))
    assert r.status_code == 403 and r.json()["error"]["code"] == "FOUR_EYES_REQUIRED"


def test_the_reviewer_approving_is_403_four_eyes(subject, crew):
    from compliance.sars.tests.sar.helpers import file_sar, move

    mlro = StaffFactory(role=StaffRole.MLRO)
    sar = file_sar(subject, crew["filer"])
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    move(sar, mlro, SARStatus.PENDING_APPROVAL)
    r = put(client_for(mlro), sar.pk, "SUBMITTED", approvedBy=str(mlro.pk))
    assert r.status_code == 403 and r.json()["error"]["code"] == "FOUR_EYES_REQUIRED"


def test_a_compliance_officer_cannot_submit_to_the_fiu(crew, make_sar):
    sar = make_sar(SARStatus.PENDING_APPROVAL)
    officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    r = put(client_for(officer), sar.pk, "SUBMITTED", approvedBy=str(officer.pk))
    assert r.status_code == 403 and r.json()["error"]["code"] == "FORBIDDEN"


@pytest.mark.parametrize("value", ["APPROVED", "draft", "", None])
def test_an_unknown_status_value_is_400(clients, make_sar, value):
    r = clients["admin"].put(url(make_sar().pk), {"status": value}, format="json")
    assert r.status_code == 400 and "status" in r.json()["error"]["details"]


@pytest.mark.parametrize("ref", [str(uuid.uuid4()), "SAR-1767225600000-NOPE00", "garbage", "%20", "x" * 300])
def test_an_unknown_sar_is_404_sar_not_found(clients, ref):
    r = put(clients["admin"], ref, "PENDING_REVIEW")
    assert r.status_code == 404 and r.json()["message"] == "SAR not found"


def test_a_move_outside_the_table_is_409_whoever_asks(clients, make_sar):
    # no role could make this move, so the answer is about the move, not about the caller
    r = put(clients["filer"], make_sar().pk, "CLOSED")
    assert r.status_code == 409 and r.json()["error"]["code"] == "INVALID_TRANSITION"
