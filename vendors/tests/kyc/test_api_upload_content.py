"""The content of an upload decides, through the API: the byte-sniffing corpus, active PDFs, image metadata.

Every refusal is 400 "Invalid file type" with the reason in ``details.file``, and leaves no file and no row.
"""

import hashlib
import io

import pikepdf
import pytest
from PIL import Image

from backoffice.tests.uploads.corpus import gps_exif, handmade_pdf, jpeg, pikepdf_pdf, png
from vendors.models import VendorDocument

from .helpers import error_of, stored_files

pytestmark = pytest.mark.django_db

HTML_PAGE = b"<!DOCTYPE html>\n<html><body><script>alert(document.cookie)</script>Not a PDF</body></html>\n"


def _attach(pdf):
    pdf.attachments["payload.exe"] = pikepdf.AttachedFileSpec(pdf, b"MZ...")


CORPUS = [
    ("html-named-pdf", HTML_PAGE, "invoice.pdf", "VALIDATION_ERROR", "The content is not PDF, JPEG or PNG"),
    ("png-named-jpg", png(), "photo.jpg", "VALIDATION_ERROR", "The content is PNG but the name ends in .jpg"),
    ("jpeg-named-pdf", jpeg(), "scan.pdf", "VALIDATION_ERROR", "The content is JPEG but the name ends in .pdf"),
    ("empty", b"", "empty.pdf", "VALIDATION_ERROR", "The file is empty"),
    ("html-without-extension", HTML_PAGE, "invoice", "VALIDATION_ERROR", "The content is not PDF, JPEG or PNG"),
    ("pdf-after-html", HTML_PAGE + handmade_pdf(), "polyglot.pdf", "VALIDATION_ERROR", None),
    (
        "javascript",
        handmade_pdf(
            catalog_extra=b"/Names << /JavaScript << /Names [(x) 4 0 R] >> >>",
            objects=(b"<< /S /JavaScript /JS (app.alert\\(1\\)) >>",),
        ),
        "js.pdf",
        "UNSAFE_CONTENT",
        "The PDF contains JavaScript",
    ),
    (
        "open-action",
        handmade_pdf(catalog_extra=b"/OpenAction 4 0 R", objects=(b"<< /S /GoTo /D [3 0 R /Fit] >>",)),
        "open.pdf",
        "UNSAFE_CONTENT",
        "The PDF has an automatic action (/OpenAction)",
    ),
    (
        "additional-action",
        handmade_pdf(catalog_extra=b"/AA << /WC 4 0 R >>", objects=(b"<< /S /GoTo /D [3 0 R /Fit] >>",)),
        "aa.pdf",
        "UNSAFE_CONTENT",
        "The PDF has an automatic action (/AA)",
    ),
    ("embedded-file", pikepdf_pdf(build=_attach), "attached.pdf", "UNSAFE_CONTENT", "The PDF has embedded files"),
    (
        "xfa",
        handmade_pdf(catalog_extra=b"/AcroForm << /Fields [] /XFA 4 0 R >>", objects=(b"<< >>",)),
        "form.pdf",
        "UNSAFE_CONTENT",
        "The PDF contains an XFA form",
    ),
    (
        "encrypted",
        pikepdf_pdf(encryption=pikepdf.Encryption(owner="owner-secret", user="", R=6)),
        "locked.pdf",
        "UNSAFE_CONTENT",
        None,
    ),
    ("truncated-jpeg", jpeg(size=(400, 300))[:600], "cut.jpg", "VALIDATION_ERROR", None),
]


@pytest.mark.parametrize(("content", "filename", "code", "reason"), [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS])
def test_the_corpus_is_refused_as_invalid_file_type_and_leaves_nothing(
    upload, vendor, media, content, filename, code, reason
):
    response = upload(vendor, "companyRegistration", content, filename)
    error = error_of(response, 400, "Invalid file type")
    assert error["code"] == code
    assert list(error["details"]) == ["file"] and error["details"]["file"][0]
    if reason is not None:
        assert error["details"]["file"] == [reason]
    assert stored_files(media) == [] and not VendorDocument.objects.exists()


def test_an_encrypted_pdf_is_refused_as_encrypted(upload, vendor, media):
    content = pikepdf_pdf(encryption=pikepdf.Encryption(owner="owner-secret", user="", R=6))
    error = error_of(upload(vendor, "taxClearance", content, "locked.pdf"), 400, "Invalid file type")
    assert "encrypted" in error["details"]["file"][0]


@pytest.mark.parametrize(("name", "content"), [("scan.PDF", handmade_pdf()), ("photo.JPEG", jpeg()), ("id.Png", png())])
def test_the_extension_is_read_without_regard_to_case(upload, vendor, name, content):
    response = upload(vendor, "other", content, name)
    assert response.status_code == 201, response.json()
    assert response.json()["data"]["key"].endswith(name.rsplit(".", 1)[0] + "." + name.rsplit(".", 1)[1].lower())


def test_a_photo_with_gps_is_stored_without_it_and_its_received_hash_is_kept(upload, vendor, media):
    content = jpeg(size=(120, 80), exif=gps_exif())
    data = upload(vendor, "directorId", content, "director.jpg").json()["data"]
    with open(media / data["key"], "rb") as f:
        stored = f.read()
    assert b"SecretPhone" not in stored and len(Image.open(io.BytesIO(stored)).getexif()) == 0
    assert data["size"] == len(stored) != len(content)  # the stored object's size
    assert data["sha256"] == hashlib.sha256(stored).hexdigest()
    document = VendorDocument.objects.get(key=data["key"])
    assert document.sanitised and document.received_sha256 == hashlib.sha256(content).hexdigest()


@pytest.mark.parametrize(("name", "content"), [("upload", handmade_pdf()), ("scan", png()), ("photo", jpeg())])
def test_a_name_without_any_extension_is_refused_whatever_the_content(upload, vendor, media, name, content):
    # the name must say what the file is: one that says nothing is not taken on trust, nor renamed
    response = upload(vendor, "other", content, name)
    assert response.status_code == 400 and response.json()["message"] == "Invalid file type"
    assert "has no extension" in response.json()["error"]["details"]["file"][0]
    assert not VendorDocument.objects.exists()
