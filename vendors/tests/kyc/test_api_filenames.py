"""Whatever the client calls its file, the key is ``vendors/{vendorId}/kyc/{documentKey}_{safeFilename}``.

Path traversal, separators of either system, control and bidi characters, accents, dots and huge names
never steer the file out of the vendor's folder or into another slot.
"""

import os
import re

import pytest

from backoffice.tests.uploads.corpus import handmade_pdf
from vendors.models import VendorDocument

from .helpers import stored_files

pytestmark = pytest.mark.django_db

SAFE_KEY = re.compile(r"^vendors/[0-9a-f-]{36}/kyc/(?P<slot>[A-Za-z]+)_(?P<name>[A-Za-z0-9_-]{1,96}\.pdf)$")


@pytest.mark.parametrize(
    ("original", "safe"),
    [
        ("../../../../etc/passwd.pdf", "passwd.pdf"),
        ("..\\..\\windows\\system32\\boot.pdf", "boot.pdf"),
        ("/absolute/path/statement.pdf", "statement.pdf"),
        ("Bank Statement (March) 2026.PDF", "Bank_Statement_March_2026.pdf"),
        ("Résumé Société Générale.pdf", "Resume_Societe_Generale.pdf"),
        ("..pdf.pdf", "pdf.pdf"),
        ("invoice\u202egpj.pdf", "invoicegpj.pdf"),  # a right-to-left override hiding the real extension
        ("tab\tand\nnewline.pdf", "tabandnewline.pdf"),  # control characters dropped on the way in
        ("payload.php.pdf", "payload_php.pdf"),
        ("名前.pdf", "file.pdf"),  # nothing of the stem is left: a stem of our own, the extension kept
    ],
)
def test_odd_names_become_safe_keys_in_the_vendors_folder(upload, vendor, media, original, safe):
    response = upload(vendor, "companyRegistration", handmade_pdf(), original)
    assert response.status_code == 201, response.json()
    key = response.json()["data"]["key"]
    assert key == f"vendors/{vendor.pk}/kyc/companyRegistration_{safe}"
    assert SAFE_KEY.match(key)
    assert stored_files(media) == [key]
    assert os.path.realpath(media / key).startswith(os.path.realpath(media / "vendors" / str(vendor.pk)))


def test_a_very_long_name_is_cut_and_keeps_its_extension(upload, vendor, media):
    response = upload(vendor, "other", handmade_pdf(), "a" * 500 + ".pdf")
    key = response.json()["data"]["key"]
    match = SAFE_KEY.match(key)
    assert match and len(match["name"]) == 100 and key.endswith(".pdf")


def test_a_name_cannot_reach_another_slot_or_vendor(upload, vendor, media):
    response = upload(vendor, "other", handmade_pdf(), "../companyRegistration_x.pdf")
    key = response.json()["data"]["key"]
    assert SAFE_KEY.match(key)["slot"] == "other" and key.endswith("other_companyRegistration_x.pdf")
    assert VendorDocument.objects.get(key=key).document_key == "other"


@pytest.mark.parametrize("original", ["upload", "...", "scan.", "名前"])
def test_a_name_without_an_extension_is_400_and_nothing_is_stored(upload, vendor, media, original):
    # a name must say what the file is, and agree with its bytes: one without an extension says nothing
    response = upload(vendor, "companyRegistration", handmade_pdf(), original)
    body = response.json()
    assert response.status_code == 400 and body["message"] == "Invalid file type", body
    assert body["error"]["details"] == {
        "file": ["The file name has no extension; it must end in .pdf, .jpg, .jpeg or .png"]
    }
    assert stored_files(media) == [] and not VendorDocument.objects.exists()


def test_a_pdf_with_a_page_after_its_end_is_400_and_nothing_is_stored(upload, vendor, media):
    polyglot = handmade_pdf() + b"<html><body><script>alert(document.domain)</script></body></html>\n"
    response = upload(vendor, "companyRegistration", polyglot, "statement.pdf")
    body = response.json()
    assert response.status_code == 400 and body["message"] == "Invalid file type", body
    assert body["error"]["details"] == {"file": ["The PDF has content after its end marker (%%EOF)"]}
    assert stored_files(media) == [] and not VendorDocument.objects.exists()
