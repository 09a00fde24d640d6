"""A verification needs every required document approved, each on its own file: 409 DOCUMENTS_NOT_APPROVED
otherwise, naming every document that is not and why. A rejection needs no approvals. API and service."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.choices import StaffRole
from backoffice.errors import InvalidTransition
from backoffice.tests.factories import StaffFactory
from backoffice.tests.uploads.corpus import handmade_pdf
from vendors.choices import REQUIRED_DOCUMENT_KEYS
from vendors.errors import DocumentsNotApproved
from vendors.models import Vendor, VendorKycChange
from vendors.services import vendor_document_review, vendor_document_upload, vendor_kyc_decide

from .helpers import error_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("approved_documents_required")]

MESSAGE_START = "Every required document must be approved before the vendor is verified. Not yet: "


def decide(client, vendor, **body):
    return client.put(f"/api/v1/admin/vendors/{vendor.pk}/kyc/status", body, format="json")


def review(client, vendor, key, decision="APPROVED", **extra):
    body = {"key": key, "decision": decision, **extra}
    return client.put(f"/api/v1/admin/vendors/{vendor.pk}/kyc/documents/review", body, format="json")


def status_of(vendor) -> str:
    return Vendor.objects.get(pk=vendor.pk).kyc_status


def test_one_of_six_approved_and_one_flagged_file_three_times_is_refused(clients, vendor, upload):
    """The issue's walk: 1 of 6 approved, three of the unreviewed ones the same file."""
    flagged = handmade_pdf(catalog_extra=b"/Lang (flagged)")
    keys = {}
    for n, key in enumerate(REQUIRED_DOCUMENT_KEYS):
        content = flagged if key in ("businessLicense", "bankStatement", "directorId") else None
        content = content or handmade_pdf(catalog_extra=b"/Lang (en-%d)" % n)
        keys[key] = upload(vendor, key, content, f"{key}.pdf").json()["data"]["key"]
    review(clients["mlro"], vendor, keys["companyRegistration"])
    review(clients["mlro"], vendor, keys["taxClearance"], decision="REREQUESTED", reasonCode="UNREADABLE")
    upload(vendor, "taxClearance", handmade_pdf(catalog_extra=b"/Lang (again)"), "again.pdf")
    assert status_of(vendor) == "UNDER_REVIEW"

    response = decide(clients["admin"], vendor, status="VERIFIED", reason="Looks fine")
    body = response.json()
    assert response.status_code == 409 and body["error"]["code"] == "DOCUMENTS_NOT_APPROVED"
    assert body["message"].startswith(MESSAGE_START) and body["statusCode"] == 409
    assert body["error"]["details"] == {
        "taxClearance": ["Not reviewed"],
        "businessLicense": ["Not reviewed"],
        "bankStatement": ["The same file as Business licence"],
        "directorId": ["The same file as Business licence"],
        "proofOfAddress": ["Not reviewed"],
    }
    assert "Tax clearance: Not reviewed" in body["message"]
    assert status_of(vendor) == "UNDER_REVIEW"
    assert not VendorKycChange.objects.filter(vendor=vendor, to_status="VERIFIED").exists()


def test_one_file_approved_in_three_slots_counts_once(clients, vendor, upload):
    flagged = handmade_pdf(catalog_extra=b"/Lang (flagged)")
    for n, key in enumerate(REQUIRED_DOCUMENT_KEYS):
        content = flagged if key in ("businessLicense", "bankStatement", "directorId") else None
        content = content or handmade_pdf(catalog_extra=b"/Lang (en-%d)" % n)
        key_stored = upload(vendor, key, content, f"{key}.pdf").json()["data"]["key"]
        assert review(clients["mlro"], vendor, key_stored).status_code == 200
    response = decide(clients["admin"], vendor, status="VERIFIED")
    error = error_of(response, 409, response.json()["message"])
    assert error["code"] == "DOCUMENTS_NOT_APPROVED"
    assert error["details"] == {
        "bankStatement": ["The same file as Business licence"],
        "directorId": ["The same file as Business licence"],
    }


def test_every_required_document_approved_on_its_own_file_verifies(clients, vendor, store_documents):
    store_documents(vendor, approve=True)
    response = decide(clients["admin"], vendor, status="VERIFIED")
    assert response.status_code == 200 and response.json()["data"]["verificationStatus"] == "VERIFIED"


def test_a_rejection_needs_no_approvals(clients, vendor, store_documents):
    store_documents(vendor)
    response = decide(clients["admin"], vendor, status="REJECTED", reason="The director is not on the register")
    assert response.status_code == 200 and status_of(vendor) == "REJECTED"


def test_the_service_names_what_is_missing(vendor, store_documents, officer):
    documents = store_documents(vendor, approve=True)
    vendor_document_review(document=documents[4], actor=officer, decision="REREQUESTED", reason_code="UNREADABLE")
    # the vendor is back to DOCUMENTS_SUBMITTED: the table's 409 comes first, whoever asks
    decider = StaffFactory(role=StaffRole.MLRO)
    with pytest.raises(InvalidTransition, match="Cannot move vendor KYC from DOCUMENTS_SUBMITTED to VERIFIED"):
        vendor_kyc_decide(vendor=vendor, actor=decider, status="VERIFIED")
    new_id = SimpleUploadedFile("id.pdf", handmade_pdf(catalog_extra=b"/Lang (new-id)"))
    vendor_document_upload(vendor=vendor, actor=officer, document_key="directorId", file=new_id)
    # a new paper: under review again, not yet approved
    with pytest.raises(DocumentsNotApproved) as refused:
        vendor_kyc_decide(vendor=vendor, actor=decider, status="VERIFIED")
    assert refused.value.details == {"directorId": ["Not reviewed"]}
    assert refused.value.status == 409


def test_with_the_check_off_the_interface_verifies_any_vendor_under_review(clients, vendor, store_documents, settings):
    settings.VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS = False  # the default: the interface's decision
    store_documents(vendor)  # six documents, none reviewed
    response = decide(clients["admin"], vendor, status="VERIFIED")
    assert response.status_code == 200, response.json()
    assert status_of(vendor) == "VERIFIED"
