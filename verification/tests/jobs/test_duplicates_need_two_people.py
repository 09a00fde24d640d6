"""Approving an identity check against possible duplicates (the same ID number, face or image as another user) needs
a written reason and a second person; the DUPLICATE_IDENTITY alert stays open until the check is decided, and the
decision decides it. Alerts are read through the API (compliance is a sibling app)."""

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from kyc.models import PlatformUser
from kyc.tests.factories import PlatformUserFactory
from verification.models import VerificationJob
from verification.services import job_process

pytestmark = pytest.mark.django_db
DECIDE = "/api/v1/verification/jobs/{}/decision"


@pytest.fixture
def flagged(sipho, make_job):
    """A job held for review because its card and face are already verified user Sipho's."""
    assert job_process(job=make_job(sipho)).decision == "approved"
    impostor = PlatformUserFactory(first_name="Sipho", last_name="Dlamini")
    job = job_process(job=make_job(impostor))
    assert job.decision == "manual_review" and job.duplicates
    return job


def the_alert(client) -> dict:
    [alert] = client.get("/api/v1/admin/aml/alerts", {"alertType": "DUPLICATE_IDENTITY"}).json()["data"]
    return alert


def test_one_click_without_a_note_approves_nothing(staff_client, flagged):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.post(DECIDE.format(flagged.pk), {"decision": "approved"})
    assert response.status_code == 400, response.json()
    assert "note" in response.json()["error"]["details"]
    job = VerificationJob.objects.get(pk=flagged.pk)
    assert job.awaits_review and job.user.verification_status == "PENDING"


def test_two_people_with_reasons_approve_and_the_alert_is_decided(staff_client, sipho, flagged):
    first, first_officer = staff_client(StaffRole.COMPLIANCE_OFFICER)
    second, second_officer = staff_client(StaffRole.COMPLIANCE_OFFICER)
    proposed = first.post(DECIDE.format(flagged.pk), {"decision": "approved", "note": "Twins: birth records seen"})
    assert proposed.status_code == 200, proposed.json()
    assert "second person" in proposed.json()["message"]
    assert proposed.json()["data"]["decision"] == "manual_review"
    user = PlatformUser.objects.get(pk=flagged.user_id)
    assert user.verification_status == "PENDING" and not user.is_verified

    again = first.post(DECIDE.format(flagged.pk), {"decision": "approved", "note": "I insist"})
    assert again.status_code == 403 and again.json()["error"]["code"] == "FOUR_EYES_REQUIRED"

    alert = the_alert(first)
    assert alert["status"] == "OPEN"
    closing = first.put(
        f"/api/v1/admin/aml/alerts/{alert['id']}/status",
        {"status": "CLOSED_FALSE_POSITIVE", "note": "twins", "reasonCode": "OTHER"},
        format="json",
    )
    assert closing.status_code == 409, closing.json()
    assert the_alert(first)["status"] == "OPEN"

    done = second.post(DECIDE.format(flagged.pk), {"decision": "approved", "note": "Agreed: registry confirms twins"})
    assert done.status_code == 200, done.json()
    assert done.json()["data"]["decision"] == "approved"
    assert done.json()["data"]["reviewedBy"] == str(second_officer.pk)
    user.refresh_from_db()
    sipho.refresh_from_db()
    assert user.is_verified and user.verification_status == "VERIFIED"
    assert user.id_number != sipho.id_number, "the user does not take the other user's ID number"
    alert = the_alert(first)
    assert alert["status"] == "CLOSED_FALSE_POSITIVE"


def test_a_rejection_by_one_person_escalates_the_alert(staff_client, flagged):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.post(DECIDE.format(flagged.pk), {"decision": "rejected", "note": "Same face as Sipho: fraud"})
    assert response.status_code == 200, response.json()
    assert PlatformUser.objects.get(pk=flagged.user_id).verification_status == "REJECTED"
    assert the_alert(client)["status"] == "ESCALATED"


def test_the_admin_page_records_a_proposal_and_refuses_the_proposer_a_second_time(client, staff_client, flagged):
    from backoffice.tests.factories import StaffFactory

    officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    client.force_login(officer)
    url = reverse("admin:verification_verificationjob_decide", args=[flagged.pk])
    page = client.post(url, {"decision": "approved", "note": ""}, follow=True).content.decode()
    assert "A written reason is required" in page
    page = client.post(url, {"decision": "approved", "note": "Twins"}, follow=True).content.decode()
    assert "Approval proposed" in page and 'data-testid="two-person-approval"' in page
    page = client.post(url, {"decision": "approved", "note": "Twins"}, follow=True).content.decode()
    assert "needs a second person" in page
    assert VerificationJob.objects.get(pk=flagged.pk).awaits_review
