"""POST /verification/jobs: staff name the user, a user's own token implies it; images become documents."""

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.clients import bearer_client
from kyc.choices import DocumentType, VerificationStatus
from kyc.models import KycDocument, VerificationRecord
from kyc.tests.factories import PlatformUserFactory
from verification.models import VerificationJob
from verification.tests.helpers import JOBS, card, files, selfie, upload

pytestmark = pytest.mark.django_db


def test_staff_create_a_job_for_a_user_and_the_images_become_the_users_documents(staff_client, sipho, media):
    client, officer = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.post(JOBS, {"userId": str(sipho.pk), **files(card(), selfie(), card())}, format="multipart")
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert (data["status"], data["currentStage"], data["progressPercentage"]) == ("PENDING", "submitted", 0)
    job = VerificationJob.objects.get(pk=data["jobId"])
    assert job.user == sipho and job.created_by == officer
    types = sorted(KycDocument.objects.filter(user=sipho).values_list("type", flat=True))
    assert types == sorted([DocumentType.ID_FRONT, DocumentType.ID_BACK, DocumentType.SELFIE])
    assert job.record.status == VerificationStatus.PENDING
    for document in KycDocument.objects.filter(user=sipho):
        assert (media / document.file.name).exists()


def test_a_user_creates_their_own_job_without_naming_themself(sipho, media):
    client = bearer_client("user", sipho.pk)
    response = client.post(JOBS, files(card(), selfie()), format="multipart")
    assert response.status_code == 201, response.json()
    assert VerificationJob.objects.get().user == sipho


def test_a_user_cannot_create_a_job_for_someone_else(sipho, media):
    other = PlatformUserFactory()
    client = bearer_client("user", sipho.pk)
    response = client.post(JOBS, {"userId": str(other.pk), **files(card(), selfie())}, format="multipart")
    assert response.status_code == 400
    assert not VerificationJob.objects.exists() and not KycDocument.objects.exists()


def test_staff_must_name_the_user(admin_client_api, media):
    response = admin_client_api.post(JOBS, files(card(), selfie()), format="multipart")
    assert response.status_code == 400 and response.json()["error"]["details"]["userId"]


def test_an_unknown_user_is_404(admin_client_api, media):
    response = admin_client_api.post(
        JOBS, {"userId": "00000000-0000-0000-0000-000000000000", **files(card(), selfie())}, format="multipart"
    )
    assert response.status_code == 404 and response.json()["message"] == "User not found"


@pytest.mark.parametrize("missing", ["idFront", "selfie"])
def test_a_missing_required_image_is_the_interfaces_400(admin_client_api, sipho, media, missing):
    body = {"userId": str(sipho.pk), **files(card(), selfie())}
    body.pop(missing)
    response = admin_client_api.post(JOBS, body, format="multipart")
    assert response.status_code == 400
    assert response.json()["message"] == "Required images not found"
    assert not VerificationJob.objects.exists() and not KycDocument.objects.exists()


def test_a_file_that_is_not_an_image_is_refused_and_nothing_is_kept(admin_client_api, sipho, media):
    body = {
        "userId": str(sipho.pk),
        "idFront": upload("front.png", card()),
        "selfie": upload("selfie.jpg", b"%PDF-1.7 not a photo"),
    }
    response = admin_client_api.post(JOBS, body, format="multipart")
    assert response.status_code == 400
    assert list(response.json()["error"]["details"]) == ["selfie"], "the answer names the image refused"
    assert not VerificationJob.objects.exists() and not KycDocument.objects.exists()
    assert not any(p.is_file() for p in media.rglob("*")), "the ID front stored first must be removed"


def test_an_archived_user_cannot_be_verified(admin_client_api, media):
    user = PlatformUserFactory(is_archived=True)
    response = admin_client_api.post(JOBS, {"userId": str(user.pk), **files(card(), selfie())}, format="multipart")
    assert response.status_code == 409 and not VerificationJob.objects.exists()


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_roles_without_verification_cannot_create(staff_client, sipho, media, role):
    client, _ = staff_client(role)
    response = client.post(JOBS, {"userId": str(sipho.pk), **files(card(), selfie())}, format="multipart")
    assert response.status_code == 403 and not VerificationJob.objects.exists()


def test_a_vendor_token_opens_nothing_here(sipho, media):
    from vendors.tests.factories import VendorFactory

    client = bearer_client("vendor", VendorFactory().pk)
    assert client.post(JOBS, files(card(), selfie()), format="multipart").status_code == 401


def test_the_record_appears_in_the_users_verifications(admin_client_api, sipho, media):
    admin_client_api.post(JOBS, {"userId": str(sipho.pk), **files(card(), selfie())}, format="multipart")
    assert VerificationRecord.objects.filter(user=sipho, status="PENDING").count() == 1
    listed = admin_client_api.get(f"/api/v1/admin/users/{sipho.pk}/verifications").json()["data"]
    assert [r["status"] for r in listed] == ["PENDING"]
