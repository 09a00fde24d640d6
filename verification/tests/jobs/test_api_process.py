"""POST /verification/process/:jobId with the real local engine: approve, reject, quality, review, repeats."""

import datetime as dt

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.clients import bearer_client
from kyc.choices import VerificationStatus
from kyc.tests.factories import PlatformUserFactory
from verification.tests.helpers import card, selfie

pytestmark = pytest.mark.django_db
PROCESS = "/api/v1/verification/process/{}"
RESULTS = "/api/v1/verification/results/{}"
STATUS = "/api/v1/verification/status/{}"


@pytest.fixture
def officer(staff_client):
    return staff_client(StaffRole.COMPLIANCE_OFFICER)[0]


def test_the_same_person_is_approved_and_the_profile_is_filled_from_the_card(officer, sipho, make_job):
    job = make_job(sipho)
    response = officer.post(PROCESS.format(job.pk))
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert (data["status"], data["currentStage"], data["progressPercentage"], data["decision"]) == (
        "COMPLETED",
        "completed",
        100,
        "approved",
    )
    assert data["faceComparisonResult"]["similarity"] >= 80 and data["faceComparisonResult"]["isMatch"] is True
    assert data["ocrResult"]["idNumber"] == "9001015800085"
    assert data["ocrResult"]["dateOfBirth"] == "1990-01-01"
    assert data["rejectionReason"] is None and data["duplicates"] == []
    sipho.refresh_from_db()
    assert (sipho.verification_status, sipho.is_verified) == (VerificationStatus.VERIFIED, True)
    # empty profile fields come from the card; the names were there already and stay
    assert (sipho.id_number, sipho.date_of_birth, sipho.sex) == ("9001015800085", dt.date(1990, 1, 1), "MALE")
    assert sipho.id_expiry_date == dt.date(2031, 5, 4)
    job.record.refresh_from_db()
    assert job.record.status == "VERIFIED" and job.record.completed_at is not None
    assert AuditLog.objects.filter(action="verification.process", object_id=str(job.pk)).exists()


def test_another_persons_selfie_is_rejected_with_a_reason(officer, sipho, make_job):
    job = make_job(sipho, self_=selfie("biden"))
    data = officer.post(PROCESS.format(job.pk)).json()["data"]
    assert (data["status"], data["currentStage"], data["decision"]) == ("REJECTED", "rejected", "rejected")
    assert data["faceComparisonResult"]["similarity"] < 60
    assert data["rejectionCode"] == "FACE_MISMATCH"
    assert data["rejectionReason"].startswith("The face in the selfie does not match the photo on the ID document")
    sipho.refresh_from_db()
    assert (sipho.verification_status, sipho.is_verified, sipho.id_number) == ("REJECTED", False, "")


def test_a_dark_selfie_is_a_reason_to_retake_it_not_a_mismatch(officer, sipho, make_job):
    job = make_job(sipho, self_=selfie("obama2", brightness=0.12))
    data = officer.post(PROCESS.format(job.pk)).json()["data"]
    assert (data["status"], data["decision"], data["rejectionCode"]) == ("REJECTED", "rejected", "IMAGE_QUALITY")
    assert "selfie" in data["rejectionReason"].lower() and "dark" in data["rejectionReason"].lower()
    assert data["faceComparisonResult"] is None
    results = officer.get(RESULTS.format(job.pk)).json()["data"]
    assert results["stageProgress"]["ocr_processing"]["status"] == "failed"
    assert results["stageProgress"]["face_verification"]["status"] == "pending"


def test_a_card_that_disagrees_with_the_profile_waits_for_an_officer(officer, make_job):
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini", date_of_birth=dt.date(1985, 6, 1))
    job = make_job(user)
    data = officer.post(PROCESS.format(job.pk)).json()["data"]
    assert (data["status"], data["currentStage"], data["decision"]) == ("COMPLETED", "final_review", "manual_review")
    user.refresh_from_db()
    assert user.verification_status == VerificationStatus.PENDING
    status = officer.get(STATUS.format(job.pk)).json()["data"]
    assert status["currentStatus"] == "COMPLETED" and status["estimatedTimeRemaining"] == 0


def test_an_expired_card_is_rejected(officer, sipho, make_job):
    job = make_job(sipho, front=card(expiry_date=dt.date(2020, 1, 31)))
    data = officer.post(PROCESS.format(job.pk)).json()["data"]
    assert (data["decision"], data["rejectionCode"]) == ("rejected", "DOCUMENT_EXPIRED")
    assert "2020-01-31" in data["rejectionReason"]


def test_a_card_without_an_expiry_date_is_approved(officer, sipho, make_job):
    job = make_job(sipho, front=card(expiry_date=None))
    data = officer.post(PROCESS.format(job.pk)).json()["data"]
    assert data["decision"] == "approved", data


def test_processing_a_finished_job_returns_it_unchanged(officer, sipho, make_job):
    job = make_job(sipho)
    first = officer.post(PROCESS.format(job.pk)).json()["data"]
    job.refresh_from_db()
    updated = job.updated_at
    second = officer.post(PROCESS.format(job.pk)).json()["data"]
    assert second == first
    job.refresh_from_db()
    assert job.updated_at == updated and job.attempts == 1


def test_results_and_status_carry_the_interfaces_fields(officer, sipho, make_job):
    job = make_job(sipho)
    officer.post(PROCESS.format(job.pk))
    results = officer.get(RESULTS.format(job.pk)).json()["data"]
    for key in ("jobId", "status", "stageProgress", "rejectionReason", "userInfo", "ocrResult", "faceComparisonResult"):
        assert key in results
    assert set(results["stageProgress"]) == {"submitted", "ocr_processing", "face_verification", "final_review"}
    assert all(entry["status"] == "done" and entry["completedAt"] for entry in results["stageProgress"].values())
    assert results["userInfo"]["id"] == str(sipho.pk) and results["userInfo"]["images"]["idFront"]
    assert results["engine"]["name"] == "local" and results["engine"]["versions"]
    assert results["engine"]["thresholds"]["approveSimilarity"] == 80.0
    assert set(results["timings"]) == {"ocr_processing", "face_verification", "final_review"}
    status = officer.get(STATUS.format(job.pk)).json()["data"]
    assert (status["currentStatus"], status["progressPercentage"], status["estimatedTimeRemaining"]) == (
        "COMPLETED",
        100,
        0,
    )


def test_a_user_processes_and_reads_their_own_job_only(sipho, make_job):
    own = make_job(sipho)
    others = make_job(PlatformUserFactory())
    client = bearer_client("user", sipho.pk)
    assert client.get(STATUS.format(own.pk)).status_code == 200
    for path in (STATUS, RESULTS, PROCESS):
        call = client.post if path is PROCESS else client.get
        response = call(path.format(others.pk))
        assert response.status_code == 404 and response.json()["message"] == "Job not found"


@pytest.mark.parametrize("job_id", ["00000000-0000-0000-0000-000000000000", "not-a-uuid"])
def test_an_unknown_job_is_the_interfaces_404(officer, job_id):
    for response in (
        officer.post(PROCESS.format(job_id)),
        officer.get(RESULTS.format(job_id)),
        officer.get(STATUS.format(job_id)),
    ):
        assert response.status_code == 404 and response.json()["message"] == "Job not found"


def test_a_job_whose_user_is_gone_is_kyc_user_data_not_found(officer, sipho, make_job):
    from kyc.services import user_purge

    job = make_job(sipho)
    user_purge(user=sipho, actor=None)
    response = officer.post(PROCESS.format(job.pk))
    assert response.status_code == 404 and response.json()["message"] == "KYC user data not found"


def test_a_job_whose_images_are_gone_is_required_images_not_found(officer, sipho, make_job, media):
    job = make_job(sipho)
    (media / job.selfie.file.name).unlink()
    response = officer.post(PROCESS.format(job.pk))
    assert response.status_code == 400 and response.json()["message"] == "Required images not found"
    job.refresh_from_db()
    assert job.status == "PENDING"


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_roles_without_verification_can_neither_run_nor_read(staff_client, sipho, make_job, role):
    job = make_job(sipho)
    client, _ = staff_client(role)
    assert client.post(PROCESS.format(job.pk)).status_code == 403
    assert client.get(RESULTS.format(job.pk)).status_code == 403
    assert client.get(STATUS.format(job.pk)).status_code == 403
