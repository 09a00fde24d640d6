"""POST /admin/vendors/:id/kyc/upload: the 201 answer, replacing a slot, and every message of the interface."""

import hashlib
import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.tests.uploads.corpus import handmade_pdf, pdf_of_size, png
from vendors.models import VendorDocument

from .helpers import error_of, post_file, stored_files, upload_url

pytestmark = pytest.mark.django_db

ISO_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")


def test_an_upload_answers_201_with_the_key_url_and_metadata(upload, vendor, media, api):
    content = handmade_pdf()
    response = upload(vendor, "taxClearance", content, "Tax Clearance 2026.pdf")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["success"] is True and body["message"] == "Document uploaded"
    data = body["data"]
    assert data["key"] == f"vendors/{vendor.pk}/kyc/taxClearance_Tax_Clearance_2026.pdf"
    assert data["size"] == len(content)
    assert (data["contentType"], data["documentKey"], data["documentType"]) == (
        "application/pdf",
        "taxClearance",
        "taxClearance",
    )
    assert ISO_UTC.match(data["uploadedAt"])
    assert data["sha256"] == hashlib.sha256(content).hexdigest()
    assert data["originalFilename"] == "Tax Clearance 2026.pdf"
    assert data["verificationStatus"] == "DOCUMENTS_SUBMITTED" and data["replacedKey"] is None
    # the url is a signed link that serves the stored bytes, no bearer header needed
    downloaded = api.get(data["url"])
    assert downloaded.status_code == 200 and b"".join(downloaded.streaming_content) == content
    assert stored_files(media) == [data["key"]]


def test_a_clean_image_keeps_its_exact_bytes_size_and_hash(upload, vendor, media):
    content = png(size=(300, 200), dpi=(300, 300))
    data = upload(vendor, "directorId", content, "id.png").json()["data"]
    assert data["size"] == len(content) and data["sha256"] == hashlib.sha256(content).hexdigest()
    with open(media / data["key"], "rb") as f:
        assert f.read() == content


def test_uploading_a_slot_again_replaces_the_file_and_deletes_the_old_one(
    upload, vendor, media, django_capture_on_commit_callbacks
):
    first = upload(vendor, "bankStatement", handmade_pdf(), "march.pdf").json()["data"]
    newer = handmade_pdf(catalog_extra=b"/Lang (en-GB)")
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(vendor, "bankStatement", newer, "april.pdf")
    assert response.status_code == 201 and response.json()["message"] == "Document replaced"
    data = response.json()["data"]
    assert data["replacedKey"] == first["key"] and data["key"].endswith("bankStatement_april.pdf")
    assert stored_files(media) == [data["key"]]
    assert VendorDocument.objects.get(vendor=vendor, document_key="bankStatement").key == data["key"]


def test_uploading_the_same_name_again_stores_a_new_key_and_deletes_the_old_file_after_the_commit(
    upload, vendor, media, django_capture_on_commit_callbacks
):
    first = upload(vendor, "bankStatement", handmade_pdf(), "statement.pdf").json()["data"]
    newer = handmade_pdf(catalog_extra=b"/Lang (en-GB)")
    with django_capture_on_commit_callbacks(execute=True):
        data = upload(vendor, "bankStatement", newer, "statement.pdf").json()["data"]
    # never written over the old file: a failed row write would have left the old row over the new bytes
    assert data["key"] != first["key"] and data["replacedKey"] == first["key"]
    assert re.fullmatch(rf"vendors/{vendor.pk}/kyc/bankStatement_statement_[A-Za-z0-9]{{7}}\.pdf", data["key"])
    with open(media / data["key"], "rb") as f:
        assert f.read() == newer
    assert stored_files(media) == [data["key"]]
    assert VendorDocument.objects.filter(vendor=vendor).count() == 1


@pytest.mark.parametrize("vendor_id", [uuid.uuid4(), "not-a-uuid", "123"])
def test_an_unknown_vendor_is_404_vendor_not_found(clients, media, vendor_id):
    response = post_file(clients["compliance_officer"], vendor_id, "taxClearance", handmade_pdf())
    assert error_of(response, 404, "Vendor not found")["code"] == "NOT_FOUND"
    assert not VendorDocument.objects.exists()


def test_no_file_is_400_no_file_uploaded(clients, vendor, media):
    client = clients["compliance_officer"]
    multipart = client.post(upload_url(vendor.pk), {"documentKey": "taxClearance"}, format="multipart")
    assert error_of(multipart, 400, "No file uploaded")["code"] == "VALIDATION_ERROR"
    form = client.post(
        upload_url(vendor.pk), "documentKey=taxClearance", content_type="application/x-www-form-urlencoded"
    )
    error_of(form, 400, "No file uploaded")
    json_body = client.post(upload_url(vendor.pk), {"documentKey": "taxClearance", "file": "x"}, format="json")
    error_of(json_body, 400, "No file uploaded")
    text_field = client.post(
        upload_url(vendor.pk), {"documentKey": "taxClearance", "file": "a.pdf"}, format="multipart"
    )
    error_of(text_field, 400, "No file uploaded")
    nothing = client.post(upload_url(vendor.pk))
    error_of(nothing, 400, "No file uploaded")  # the file comes first in the interface's table


@pytest.mark.parametrize("extra", [{}, {"documentKey": ""}, {"documentKey": "   "}])
def test_no_document_key_is_400_document_key_is_required(clients, vendor, media, extra):
    response = post_file(clients["compliance_officer"], vendor.pk, None, handmade_pdf(), **extra)
    error = error_of(response, 400, "Document key is required")
    assert error["code"] == "VALIDATION_ERROR" and "documentKey" in error["details"]
    assert not VendorDocument.objects.exists()


@pytest.mark.parametrize("key", ["passport", "TAXCLEARANCE", "tax_clearance", "../other", "companyRegistration,other"])
def test_a_key_outside_the_list_is_400_invalid_document_key(clients, vendor, media, key):
    response = post_file(clients["compliance_officer"], vendor.pk, key, handmade_pdf())
    assert error_of(response, 400, "Invalid document key")["code"] == "VALIDATION_ERROR"
    assert stored_files(media) == []


@pytest.mark.parametrize(
    "key",
    [
        "companyRegistration",
        "taxClearance",
        "businessLicense",
        "bankStatement",
        "directorId",
        "proofOfAddress",
        "tradingLicense",
        "other",
    ],
)
def test_every_document_key_is_accepted(upload, vendor, key):
    assert upload(vendor, key).status_code == 201


def test_a_file_of_50_mb_plus_one_byte_is_400_file_size_exceeds_limit(clients, vendor, media):
    limit = 50 * 1024 * 1024
    content = handmade_pdf() + b"%" * (limit + 1 - len(handmade_pdf()))
    assert len(content) == limit + 1
    response = post_file(clients["compliance_officer"], vendor.pk, "bankStatement", content, "big.pdf")
    assert error_of(response, 400, "File size exceeds limit")["code"] == "VALIDATION_ERROR"
    assert stored_files(media) == [] and not VendorDocument.objects.exists()


def test_a_file_of_exactly_50_mb_is_taken(clients, vendor, media):
    limit = 50 * 1024 * 1024
    content = pdf_of_size(limit)
    response = post_file(clients["compliance_officer"], vendor.pk, "bankStatement", content, "exact.pdf")
    assert response.status_code == 201, response.json()
    assert response.json()["data"]["size"] == limit


def test_a_body_far_over_the_cap_is_refused_before_it_is_parsed(clients, vendor, media, monkeypatch):
    from django.core.files.uploadhandler import TemporaryFileUploadHandler

    def never(*args, **kwargs):
        raise AssertionError("the body should not have been parsed")

    monkeypatch.setattr(TemporaryFileUploadHandler, "receive_data_chunk", never)
    content = b"%PDF-1.7\n" + b"%" * (52 * 1024 * 1024)
    response = post_file(clients["compliance_officer"], vendor.pk, "bankStatement", content, "huge.pdf")
    error_of(response, 400, "File size exceeds limit")


def test_the_upload_field_names_are_the_interfaces(clients, vendor, media):
    """A client that sends the file under another name gets "No file uploaded", not a silent success."""
    data = {"document": SimpleUploadedFile("a.pdf", handmade_pdf()), "documentKey": "other"}
    response = clients["compliance_officer"].post(upload_url(vendor.pk), data, format="multipart")
    error_of(response, 400, "No file uploaded")
