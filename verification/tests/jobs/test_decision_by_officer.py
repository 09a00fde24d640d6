"""A job waiting for manual review is decided by a compliance officer: API and audit."""

import datetime as dt

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from kyc.tests.factories import PlatformUserFactory
from verification.services import job_process

pytestmark = pytest.mark.django_db
DECIDE = "/api/v1/verification/jobs/{}/decision"


@pytest.fixture
def waiting(make_job):
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini", date_of_birth=dt.date(1985, 6, 1))
    job = job_process(job=make_job(user))
    assert job.decision == "manual_review"
    return job


def test_an_officer_approves_and_the_user_is_verified(staff_client, waiting):
    client, officer = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.post(DECIDE.format(waiting.pk), {"decision": "approved", "note": "Date of birth typo in profile"})
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert (data["status"], data["currentStage"], data["decision"]) == ("COMPLETED", "completed", "approved")
    assert data["reviewedBy"] == str(officer.pk) and data["reviewNote"] == "Date of birth typo in profile"
    user = waiting.user
    user.refresh_from_db()
    assert user.verification_status == "VERIFIED" and user.is_verified
    assert user.date_of_birth == dt.date(1985, 6, 1), "a profile value is never overwritten by the card"
    assert user.id_number == "9001015800085", "an empty one is filled"
    entry = AuditLog.objects.get(action="verification.decide", object_id=str(waiting.pk))
    assert entry.actor_id == officer.pk and entry.changes["decision"] == "approved"


def test_rejecting_needs_a_note_that_becomes_the_reason(staff_client, waiting):
    client, _ = staff_client(StaffRole.MLRO)
    response = client.post(DECIDE.format(waiting.pk), {"decision": "rejected"})
    assert response.status_code == 400 and "note" in response.json()["error"]["details"]
    response = client.post(
        DECIDE.format(waiting.pk), {"decision": "rejected", "note": "The card photo is not this person"}
    )
    data = response.json()["data"]
    assert (data["status"], data["decision"], data["rejectionReason"]) == (
        "REJECTED",
        "rejected",
        "The card photo is not this person",
    )
    waiting.user.refresh_from_db()
    assert waiting.user.verification_status == "REJECTED"


def test_a_job_not_waiting_for_review_cannot_be_decided(staff_client, sipho, make_job):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    approved = job_process(job=make_job(sipho))
    response = client.post(DECIDE.format(approved.pk), {"decision": "rejected", "note": "x"})
    assert response.status_code == 409 and response.json()["error"]["code"] == "INVALID_TRANSITION"


def test_a_decided_job_cannot_be_decided_again(staff_client, waiting):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    assert client.post(DECIDE.format(waiting.pk), {"decision": "approved"}).status_code == 200
    assert client.post(DECIDE.format(waiting.pk), {"decision": "rejected", "note": "no"}).status_code == 409


@pytest.mark.parametrize("body", [{"decision": "maybe"}, {}, {"decision": "approved", "note": 5}])
def test_bad_input_is_a_400(staff_client, waiting, body):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    assert client.post(DECIDE.format(waiting.pk), body, format="json").status_code == 400


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_other_roles_cannot_decide(staff_client, waiting, role):
    client, _ = staff_client(role)
    assert client.post(DECIDE.format(waiting.pk), {"decision": "approved"}).status_code == 403


def test_a_user_cannot_decide_their_own_job(waiting):
    from backoffice.tests.clients import bearer_client

    client = bearer_client("user", waiting.user_id)
    assert client.post(DECIDE.format(waiting.pk), {"decision": "approved"}).status_code == 403
