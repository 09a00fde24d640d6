"""POST /api/v1/admin/aml/sars/:sarId/return: back to DRAFT from review or approval, with a reason, not by the filer."""

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SARTransition
from compliance.sars.tests.sar.helpers import client_for, sar_in

STATUS_KEYS = {"id", "sarId", "status", "reviewedAt", "reviewedBy", "approvedAt", "approvedBy", "submittedAt"}


def back(client, ref, reason="The amounts do not match the ledger."):
    body = {} if reason is None else {"reason": reason}
    return client.post(f"/api/v1/admin/aml/sars/{ref}/return", body, format="json")


@pytest.mark.parametrize(
    "state, who",
    [
        (SARStatus.PENDING_REVIEW, "reviewer"),
        (SARStatus.PENDING_REVIEW, "approver"),
        (SARStatus.PENDING_REVIEW, "admin"),
        (SARStatus.PENDING_APPROVAL, "approver"),
        (SARStatus.PENDING_APPROVAL, "admin"),
    ],
)
def test_the_reviewer_or_approver_returns_it_with_the_reason_in_the_history(clients, crew, subject, state, who):
    sar = sar_in(state, subject, crew)
    r = back(clients[who], sar.sar_id)
    assert r.status_code == 200, r.content
    data = r.json()["data"]
    assert set(data) == STATUS_KEYS and data["status"] == "DRAFT" and data["sarId"] == sar.sar_id
    assert data["reviewedBy"] is None and data["reviewedAt"] is None  # the next review starts afresh
    move = SARTransition.objects.filter(sar=sar).order_by("-created_at", "-id").first()
    assert (move.from_status, move.to_status, move.actor) == (state, SARStatus.DRAFT, crew[who])
    assert move.note == "The amounts do not match the ledger."
    assert AuditLog.objects.filter(action="sar.return", object_id=str(sar.pk)).exists()


def test_the_exports_history_shows_the_return_and_its_reason(clients, crew, subject):
    sar = sar_in(SARStatus.PENDING_REVIEW, subject, crew)
    back(clients["reviewer"], sar.pk, "Say who the senders are.")
    for fmt in ("html", "text", "goaml"):
        body = clients["reviewer"].get(f"/api/v1/admin/aml/sars/{sar.pk}/export", {"format": fmt}).content.decode()
        assert "DRAFT" in body, fmt
        # the institution's exports show the return's reason; the goAML report, what goes to the FIU, never
        # carries internal workflow history (issue 31, goaml.md)
        assert ("Say who the senders are." in body) == (fmt != "goaml"), fmt


def test_never_by_the_filer(clients, crew, subject):
    sar = sar_in(SARStatus.PENDING_REVIEW, subject, crew)
    r = back(clients["filer"], sar.pk)
    assert r.status_code == 403 and r.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    mlro_filer = StaffFactory(role=StaffRole.MLRO)
    from compliance.sars.tests.sar.helpers import file_sar, move

    own = file_sar(subject, mlro_filer)
    move(own, mlro_filer, SARStatus.PENDING_REVIEW)
    move(own, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    r = back(client_for(mlro_filer), own.pk)
    assert r.status_code == 403 and r.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    own.refresh_from_db()
    assert own.status == SARStatus.PENDING_APPROVAL


def test_a_compliance_officer_cannot_return_from_approval(clients, crew, subject):
    sar = sar_in(SARStatus.PENDING_APPROVAL, subject, crew)
    officer = client_for(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    r = back(officer, sar.pk)
    assert r.status_code == 403 and r.json()["error"]["code"] == "FORBIDDEN"


@pytest.mark.parametrize(
    "state",
    [SARStatus.DRAFT, SARStatus.SUBMITTED, SARStatus.ACKNOWLEDGED, SARStatus.UNDER_INVESTIGATION, SARStatus.CLOSED],
)
def test_from_any_other_state_it_is_409(clients, crew, subject, state):
    sar = sar_in(state, subject, crew)
    r = back(clients["admin"], sar.pk)
    assert r.status_code == 409 and r.json()["error"]["code"] == "INVALID_TRANSITION"
    assert r.json()["message"] == f"Cannot move SAR from {state} to DRAFT"


@pytest.mark.parametrize("reason", [None, "", "   "])
def test_the_reason_is_required(clients, crew, subject, reason):
    sar = sar_in(SARStatus.PENDING_REVIEW, subject, crew)
    r = back(clients["reviewer"], sar.pk, reason)
    assert r.status_code == 400 and "reason" in r.json()["error"]["details"]
    sar.refresh_from_db()
    assert sar.status == SARStatus.PENDING_REVIEW


@pytest.mark.parametrize("state", [SARStatus.PENDING_REVIEW, SARStatus.PENDING_APPROVAL])
def test_the_status_endpoint_still_refuses_a_move_to_draft(clients, crew, subject, state):
    sar = sar_in(state, subject, crew)
    r = clients["admin"].put(f"/api/v1/admin/aml/sars/{sar.pk}/status", {"status": "DRAFT"}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "INVALID_TRANSITION"


def test_after_a_return_the_sar_goes_round_again_with_a_fresh_review(clients, crew, subject):
    sar = sar_in(SARStatus.PENDING_APPROVAL, subject, crew)
    back(clients["approver"], sar.pk, "Rework the narrative.")
    base = f"/api/v1/admin/aml/sars/{sar.pk}/status"
    assert clients["filer"].put(base, {"status": "PENDING_REVIEW"}, format="json").status_code == 200
    admin_id = str(crew["admin"].pk)
    r = clients["admin"].put(base, {"status": "PENDING_APPROVAL", "reviewedBy": admin_id}, format="json")
    assert r.status_code == 200 and r.json()["data"]["reviewedBy"] == admin_id
    approver_id = str(crew["approver"].pk)
    r = clients["approver"].put(base, {"status": "SUBMITTED", "approvedBy": approver_id}, format="json")
    assert r.status_code == 200 and r.json()["data"]["status"] == "SUBMITTED"


def test_unknown_sar_is_404(clients):
    assert back(clients["reviewer"], "SAR-0-NOPE").status_code == 404
