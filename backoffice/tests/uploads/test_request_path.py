"""Through Django's multipart parsing: the size cap stops the body early, errors leave in the envelope."""

import hashlib
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from .corpus import handmade_pdf, png
from .views import POLICY

pytestmark = [pytest.mark.django_db, pytest.mark.urls("backoffice.tests.uploads.views")]


@pytest.fixture
def api(admin_client_api):
    return admin_client_api


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024  # bodies past 64 KB spool to a temporary file
    return tmp_path


def test_a_pdf_posted_as_multipart_is_stored(api, media):
    content = handmade_pdf(objects=(b"<< /Length 200000 >>\nstream\n" + b"\x00" * 200_000 + b"\nendstream",))
    response = api.post("/upload", {"file": SimpleUploadedFile("Tax Clearance.pdf", content)}, format="multipart")
    assert response.status_code == 201
    assert response.json()["sha256"] == hashlib.sha256(content).hexdigest()
    with open(os.path.join(media, "uploads", "Tax_Clearance.pdf"), "rb") as f:
        assert f.read() == content


def test_a_file_over_the_cap_is_refused_in_the_envelope(api, media):
    content = handmade_pdf() + b"%" * POLICY.max_bytes
    response = api.post("/upload", {"file": SimpleUploadedFile("big.pdf", content)}, format="multipart")
    assert response.status_code == 400
    body = response.json()
    assert body["success"] is False and body["message"] == "File size exceeds limit"
    assert body["error"]["code"] == "VALIDATION_ERROR"
    # the upload handler stopped it as the bytes arrived (the store's own message names the size in MB)
    assert body["error"]["details"] == {"file": ["The file is larger than 1048576 bytes"]}
    assert not os.path.exists(os.path.join(media, "uploads"))


def test_a_body_far_over_the_cap_is_refused_by_its_declared_length(api, media, monkeypatch):
    from django.core.files.uploadhandler import TemporaryFileUploadHandler

    def never(*args, **kwargs):
        raise AssertionError("the body should not have been parsed")

    monkeypatch.setattr(TemporaryFileUploadHandler, "receive_data_chunk", never)
    content = b"%PDF-1.7\n" + b"%" * (3 * POLICY.max_bytes)
    response = api.post("/upload", {"file": SimpleUploadedFile("big.pdf", content)}, format="multipart")
    assert response.status_code == 400 and response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_a_png_named_pdf_is_refused_with_its_reason(api, media):
    response = api.post("/upload", {"file": SimpleUploadedFile("scan.pdf", png())}, format="multipart")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"] == "Invalid file type"
    assert error["details"] == {"file": ["The content is PNG but the name ends in .pdf"]}
