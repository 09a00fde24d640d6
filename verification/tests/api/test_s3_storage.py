"""On S3 (moto's server over HTTP): a job's images live in the bucket, the engine reads them back, and a
presigned link of our own bucket is read from storage by the test endpoints, never fetched as a foreign URL."""

import pytest

from backoffice.choices import StaffRole
from backoffice.files import signed_file_url
from verification.services import job_process
from verification.tests.helpers import card

pytestmark = pytest.mark.django_db


def test_a_job_on_s3_is_stored_in_the_bucket_and_processed(s3_storage, sipho, make_job):
    job = make_job(sipho)
    keys = {o["Key"] for o in s3_storage.list_objects_v2(Bucket="vikela-test")["Contents"]}
    assert {job.id_front.file.name, job.selfie.file.name} <= keys
    assert job_process(job=job).decision == "approved"


def test_a_presigned_link_of_our_bucket_is_read_from_storage(s3_storage, staff_client, settings):
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    settings.VERIFICATION_ALLOWED_IMAGE_HOSTS = []  # the bucket's host is not listed: only "our own storage" lets it in
    name = default_storage.save("tests/card.png", ContentFile(card()))
    url = signed_file_url(name)
    assert url.startswith(settings.AWS_S3_ENDPOINT_URL) and "Signature" in url
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.post("/api/v1/verification/test-ocr", {"imageUrl": url}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["data"]["personalInfo"]["idNumber"] == "9001015800085"
    other = url.replace("tests/card.png", "tests/missing.png")
    response = client.post("/api/v1/verification/test-ocr", {"imageUrl": other}, format="json")
    assert response.status_code == 400
