"""A job's stored OCR result keys its field confidences snake_case; the API answers the interface's names as
before (issue 16); migration 0006 converts the rows written with the API's names, and back."""

import importlib

import pytest
from django.apps import apps as django_apps

from backoffice.choices import StaffRole
from verification.models import VerificationJob

pytestmark = pytest.mark.django_db
MIGRATION = importlib.import_module("verification.migrations.0006_ocr_field_confidence_snake_case")
PROCESS = "/api/v1/verification/process/{}"
RESULTS = "/api/v1/verification/results/{}"


def test_field_confidences_are_stored_snake_case_and_answered_as_before(staff_client, sipho, make_job):
    officer, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    job = make_job(sipho)
    assert officer.post(PROCESS.format(job.pk)).status_code == 200
    stored = VerificationJob.objects.get(pk=job.pk).ocr_result["field_confidence"]
    assert stored and "date_of_birth" in stored and all(key == key.lower() for key in stored)
    answered = officer.get(RESULTS.format(job.pk))
    assert "dateOfBirth" in answered.json()["data"]["ocrResult"]["fieldConfidence"]
    MIGRATION.to_camel(django_apps, None)  # the row as the old code wrote it
    assert "dateOfBirth" in VerificationJob.objects.get(pk=job.pk).ocr_result["field_confidence"]
    MIGRATION.to_snake(django_apps, None)
    assert VerificationJob.objects.get(pk=job.pk).ocr_result["field_confidence"] == stored
    # the answer as before, but for the image links: they are signed with the time they were made
    assert _without_links(officer.get(RESULTS.format(job.pk)).json()) == _without_links(answered.json())


def _without_links(body: dict) -> dict:
    # the signed links are the customer's images (``userInfo.images``), signed with the second they were made: two
    # answers a second apart differ there and only there
    data = body["data"]
    user_info = {key: value for key, value in data["userInfo"].items() if key != "images"}
    assert set(data["userInfo"]["images"]) == {"idFront", "idBack", "selfie"}
    return {**body, "data": {**data, "userInfo": user_info}}
