"""The storage under the endpoints: S3 end to end on a real S3 API (moto's server), and failures that leave nothing.

A failure while the file is written (a timeout, a refused write, the deadline) answers 500 and leaves no
file, no row and no open multipart upload; a failure of the row after the write removes the new file and
keeps the old document as it was.
"""

import hashlib
import urllib.request

import pytest
from botocore.exceptions import ReadTimeoutError
from django.conf import settings
from django.core.files.storage import FileSystemStorage, default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError

from backoffice.tests.deadlines import answered_within
from backoffice.tests.s3 import BUCKET
from backoffice.tests.uploads.corpus import handmade_pdf
from vendors.models import VendorDocument
from vendors.services import kyc_documents

from .helpers import error_of, stored_files, upload_url

pytestmark = pytest.mark.django_db


def big_pdf(megabytes: int) -> bytes:
    data = bytes(range(256)) * (megabytes * 4096)
    return handmade_pdf(objects=(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data),))


def keys_in_bucket(s3) -> list[str]:
    return sorted(o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET).get("Contents", []))


def test_s3_upload_list_presigned_download_replace_and_delete(
    clients, vendor, s3_storage, django_capture_on_commit_callbacks
):
    client = clients["compliance_officer"]
    content = big_pdf(12)  # past the 5 MB part size: a multipart upload
    response = client.post(
        upload_url(vendor.pk),
        {"file": SimpleUploadedFile("Bank Statement.pdf", content), "documentKey": "bankStatement"},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    key = f"vendors/{vendor.pk}/kyc/bankStatement_Bank_Statement.pdf"
    assert data["key"] == key and keys_in_bucket(s3_storage) == [key]
    head = s3_storage.head_object(Bucket=BUCKET, Key=key)
    assert head["ContentLength"] == len(content) == data["size"] and head["ContentType"] == "application/pdf"

    listing = client.get(f"/api/v1/admin/vendors/{vendor.pk}/kyc/documents").json()["data"]
    assert [item["key"] for item in listing] == [key] and listing[0]["size"] == len(content)
    url = listing[0]["url"]
    assert "X-Amz-Signature=" in url and "X-Amz-Expires=" in url  # presigned, expiring
    with urllib.request.urlopen(url) as download:
        assert hashlib.sha256(download.read()).hexdigest() == hashlib.sha256(content).hexdigest()

    newer = handmade_pdf(catalog_extra=b"/Lang (en)")
    with django_capture_on_commit_callbacks(execute=True):
        replaced = client.post(
            upload_url(vendor.pk),
            {"file": SimpleUploadedFile("april.pdf", newer), "documentKey": "bankStatement"},
            format="multipart",
        ).json()["data"]
    assert keys_in_bucket(s3_storage) == [replaced["key"]] != [key]

    with django_capture_on_commit_callbacks(execute=True):
        deleted = client.delete(
            f"/api/v1/admin/vendors/{vendor.pk}/kyc/documents", {"key": replaced["key"]}, format="json"
        )
    assert deleted.status_code == 200 and keys_in_bucket(s3_storage) == []
    assert not VendorDocument.objects.exists()


def test_an_s3_that_stops_answering_mid_upload_is_503_and_leaves_nothing(clients, vendor, s3_storage):
    parts = []

    def time_out_after_the_first_part(request, **kwargs):
        parts.append(request.url)
        if len(parts) > 1:
            raise ReadTimeoutError(endpoint_url=request.url)

    events = default_storage.connection.meta.client.meta.events
    events.register("before-send.s3.UploadPart", time_out_after_the_first_part)
    try:
        response = clients["compliance_officer"].post(
            upload_url(vendor.pk),
            {"file": SimpleUploadedFile("statement.pdf", big_pdf(16)), "documentKey": "bankStatement"},
            format="multipart",
        )
    finally:
        events.unregister("before-send.s3.UploadPart", time_out_after_the_first_part)
    # botocore gave up on the storage (its read timeout, after its retries): an outage, 503, not the
    # upload's own deadline (500 "Upload timeout", below)
    assert error_of(response, 503, "Service temporarily unavailable, try again shortly")["code"] == (
        "SERVICE_UNAVAILABLE"
    )
    assert response["Retry-After"] == "5"
    assert len(parts) >= 2  # it struck after a part had gone through
    assert keys_in_bucket(s3_storage) == []
    assert "Uploads" not in s3_storage.list_multipart_uploads(Bucket=BUCKET)
    assert not VendorDocument.objects.exists()


def test_a_refused_write_on_disk_is_500_and_leaves_no_file_or_row(clients, vendor, media, monkeypatch):
    real_save = FileSystemStorage._save

    def half_then_fail(self, name, content):
        real_save(self, name, content)  # the bytes land, then the storage fails
        raise OSError("No space left on device")

    monkeypatch.setattr(FileSystemStorage, "_save", half_then_fail)
    response = clients["compliance_officer"].post(
        upload_url(vendor.pk),
        {"file": SimpleUploadedFile("statement.pdf", big_pdf(2)), "documentKey": "bankStatement"},
        format="multipart",
    )
    assert error_of(response, 500, "Upload failed")["code"] == "STORAGE_ERROR"
    assert stored_files(media) == [] and not VendorDocument.objects.exists()


def test_the_deadline_passing_is_500_upload_timeout(clients, vendor, media, settings):
    settings.VENDOR_KYC_UPLOAD_TIMEOUT = 1e-9  # cancelled as soon as the first check looks at the clock
    response = clients["compliance_officer"].post(
        upload_url(vendor.pk),
        {"file": SimpleUploadedFile("statement.pdf", big_pdf(2)), "documentKey": "bankStatement"},
        format="multipart",
    )
    assert error_of(response, 500, "Upload timeout")["code"] == "UPLOAD_TIMEOUT"
    assert stored_files(media) == [] and not VendorDocument.objects.exists()


def test_a_failed_row_write_removes_the_new_file_and_keeps_the_old_document(upload, vendor, media, monkeypatch):
    first = upload(vendor, "taxClearance", handmade_pdf(), "first.pdf").json()["data"]

    def fail(**kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(kyc_documents.events, "document_uploaded", fail)
    response = upload(vendor, "taxClearance", handmade_pdf(catalog_extra=b"/Lang (en)"), "second.pdf")
    assert error_of(response, 500, "Internal server error")["code"] == "INTERNAL_ERROR"
    assert stored_files(media) == [first["key"]]
    assert VendorDocument.objects.get(vendor=vendor).key == first["key"]


def post_statement(client, vendor, content: bytes, name: str = "statement.pdf"):
    return client.post(
        upload_url(vendor.pk),
        {"file": SimpleUploadedFile(name, content), "documentKey": "bankStatement"},
        format="multipart",
    )


def object_sha256(s3, key: str) -> str:
    return hashlib.sha256(s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()).hexdigest()


def test_a_same_name_replacement_that_fails_in_the_database_leaves_the_old_record_and_its_file(
    clients, vendor, s3_storage, monkeypatch
):
    """The fault run's finding: the database went away after the new bytes were written. The old row must
    still describe the object it names, and the new object must not be left behind."""
    client = clients["compliance_officer"]
    old = post_statement(client, vendor, handmade_pdf()).json()["data"]

    def database_gone(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(kyc_documents, "kyc_status_follow", database_gone)  # after the row's save, in its transaction
    response = post_statement(client, vendor, handmade_pdf(catalog_extra=b"/Lang (en)"))
    assert error_of(response, 503, "Service temporarily unavailable, try again shortly")["code"] == (
        "SERVICE_UNAVAILABLE"
    )
    document = VendorDocument.objects.get(vendor=vendor)
    assert document.key == old["key"]
    assert keys_in_bucket(s3_storage) == [old["key"]]  # the new object was deleted, the old one kept
    assert object_sha256(s3_storage, old["key"]) == document.sha256 == old["sha256"]


def test_a_same_name_replacement_writes_a_new_key_and_deletes_the_old_object_only_after_the_commit(
    clients, vendor, s3_storage, django_capture_on_commit_callbacks
):
    client = clients["compliance_officer"]
    old = post_statement(client, vendor, handmade_pdf()).json()["data"]
    newer = handmade_pdf(catalog_extra=b"/Lang (en)")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        data = post_statement(client, vendor, newer).json()["data"]
    assert data["key"] != old["key"] and data["replacedKey"] == old["key"]
    assert data["key"].startswith(f"vendors/{vendor.pk}/kyc/bankStatement_statement") and data["key"].endswith(".pdf")
    # until the row's transaction commits, both objects are there, each with its own bytes
    assert keys_in_bucket(s3_storage) == sorted([old["key"], data["key"]])
    assert object_sha256(s3_storage, old["key"]) == old["sha256"]
    assert object_sha256(s3_storage, data["key"]) == data["sha256"] == hashlib.sha256(newer).hexdigest()
    for callback in callbacks:
        callback()
    assert keys_in_bucket(s3_storage) == [data["key"]]
    assert VendorDocument.objects.get(vendor=vendor).key == data["key"]


@pytest.mark.outage
@pytest.mark.django_db(transaction=True)
def test_an_upload_to_a_frozen_s3_answers_503_in_the_envelope_within_the_client_limits(clients, vendor, frozen_s3):
    """The S3 server accepts connections and never answers: the request gives up after the S3 client's
    bounded timeouts and retries (AWS_S3_*), never holding its thread for minutes, and records nothing."""
    limit = 3 * settings.AWS_S3_MAX_ATTEMPTS * max(settings.AWS_S3_CONNECT_TIMEOUT, settings.AWS_S3_READ_TIMEOUT)
    response = answered_within(
        limit + 10, lambda: post_statement(clients["compliance_officer"], vendor, handmade_pdf())
    )
    assert error_of(response, 503, "Service temporarily unavailable, try again shortly")["code"] == (
        "SERVICE_UNAVAILABLE"
    )
    assert not VendorDocument.objects.exists()
