"""PUT .../kyc/documents/review: approve a document or ask for it again, with reasons and dates."""

import datetime as dt

import pytest

from backoffice.models import AuditLog
from vendors.choices import REQUIRED_DOCUMENT_KEYS
from vendors.models import VendorDocument, today
from vendors.tests.factories import VendorFactory

from .helpers import error_of

pytestmark = pytest.mark.django_db


def review(client, vendor, **body):
    return client.put(f"/api/v1/admin/vendors/{vendor.pk}/kyc/documents/review", body, format="json")


def progress(client, vendor):
    return client.get(f"/api/v1/admin/vendors/{vendor.pk}/kyc/progress").json()["data"]


@pytest.fixture
def under_review(vendor, store_documents):
    documents = store_documents(vendor)
    return vendor, {d.document_key: d for d in documents}


def test_approving_with_dates_and_a_note_shows_in_progress(clients, under_review):
    vendor, documents = under_review
    expiry = today() + dt.timedelta(days=200)
    response = review(
        clients["compliance_officer"],
        vendor,
        key=documents["taxClearance"].key,
        decision="APPROVED",
        note="Stamped by the revenue authority",
        expiryDate=expiry.isoformat(),
        issueDate="2026-01-15",
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert (data["status"], data["expiryDate"], data["issueDate"]) == ("APPROVED", expiry.isoformat(), "2026-01-15")
    assert data["verificationStatus"] == "UNDER_REVIEW"
    entry = progress(clients["support"], vendor)["documents"]["taxClearance"]
    assert entry["status"] == "APPROVED" and entry["expiryDate"] == expiry.isoformat()
    assert entry["review"]["decision"] == "APPROVED" and entry["review"]["reasonCode"] is None
    assert entry["review"]["note"] == "Stamped by the revenue authority" and entry["review"]["reviewedAt"].endswith("Z")
    assert AuditLog.objects.filter(action="vendor.kyc.document.review", object_id=str(vendor.pk)).count() == 1


@pytest.mark.parametrize("reason", ["UNREADABLE", "EXPIRED", "WRONG_DOCUMENT", "NAME_MISMATCH", "INCOMPLETE", "OTHER"])
def test_asking_again_counts_the_document_as_missing_and_reopens_the_file(clients, under_review, reason):
    vendor, documents = under_review
    response = review(
        clients["mlro"], vendor, key=documents["bankStatement"].key, decision="REREQUESTED", reasonCode=reason
    )
    assert response.status_code == 200
    assert response.json()["data"]["verificationStatus"] == "DOCUMENTS_SUBMITTED"
    data = progress(clients["support"], vendor)
    assert data["missingDocuments"] == ["bankStatement"] and data["totalCompleted"] == 5
    entry = data["documents"]["bankStatement"]
    assert entry["uploaded"] is True and entry["status"] == "REREQUESTED"
    assert entry["review"]["decision"] == "REREQUESTED" and entry["review"]["reasonCode"] == reason


def test_a_new_upload_of_an_asked_again_document_clears_its_review(clients, under_review, upload):
    vendor, documents = under_review
    review(clients["admin"], vendor, key=documents["directorId"].key, decision="REREQUESTED", reasonCode="UNREADABLE")
    upload(vendor, "directorId")
    data = progress(clients["support"], vendor)
    assert data["verificationStatus"] == "UNDER_REVIEW" and data["documents"]["directorId"]["review"] is None


def test_an_expiry_date_in_the_past_counts_the_document_as_missing(clients, under_review):
    vendor, documents = under_review
    past = (today() - dt.timedelta(days=1)).isoformat()
    response = review(
        clients["compliance_officer"],
        vendor,
        key=documents["businessLicense"].key,
        decision="APPROVED",
        expiryDate=past,
    )
    assert response.json()["data"]["status"] == "EXPIRED"
    assert response.json()["data"]["verificationStatus"] == "DOCUMENTS_SUBMITTED"
    assert progress(clients["support"], vendor)["missingDocuments"] == ["businessLicense"]


def test_dates_left_out_are_kept_and_null_clears_them(clients, under_review):
    vendor, documents = under_review
    key = documents["proofOfAddress"].key
    expiry = (today() + dt.timedelta(days=90)).isoformat()
    review(clients["admin"], vendor, key=key, decision="APPROVED", expiryDate=expiry)
    review(clients["admin"], vendor, key=key, decision="APPROVED", note="again")
    assert VendorDocument.objects.get(key=key).expiry_date.isoformat() == expiry
    review(clients["admin"], vendor, key=key, decision="APPROVED", expiryDate=None)
    assert VendorDocument.objects.get(key=key).expiry_date is None


def test_the_document_key_is_accepted_in_place_of_the_storage_key(clients, under_review):
    vendor, _ = under_review
    response = review(clients["admin"], vendor, key="companyRegistration", decision="APPROVED")
    assert response.status_code == 200 and response.json()["data"]["documentKey"] == "companyRegistration"


@pytest.mark.parametrize(
    ("body", "message", "field"),
    [
        ({"decision": "APPROVED"}, "Key is required", "key"),
        ({"key": "KEY"}, "Invalid decision", "decision"),
        ({"key": "KEY", "decision": "MAYBE"}, "Invalid decision", "decision"),
        ({"key": "KEY", "decision": "REREQUESTED"}, "Reason code is required", "reasonCode"),
        ({"key": "KEY", "decision": "REREQUESTED", "reasonCode": ""}, "Reason code is required", "reasonCode"),
        ({"key": "KEY", "decision": "REREQUESTED", "reasonCode": "BORED"}, "Invalid reason code", "reasonCode"),
        ({"key": "KEY", "decision": "APPROVED", "expiryDate": "31/12/2026"}, "Invalid expiry date", "expiryDate"),
        (
            {"key": "KEY", "decision": "APPROVED", "issueDate": "2026-05-01", "expiryDate": "2026-04-01"},
            "Validation error",
            "expiryDate",
        ),
        ({"key": "KEY", "decision": "APPROVED", "reasonCode": "OTHER"}, None, "reasonCode"),
    ],
)
def test_a_bad_review_is_400_and_changes_nothing(clients, under_review, body, message, field):
    vendor, documents = under_review
    body = {k: (documents["taxClearance"].key if v == "KEY" else v) for k, v in body.items()}
    response = review(clients["compliance_officer"], vendor, **body)
    assert response.status_code == 400, response.json()
    if message:
        assert response.json()["message"] == message
    assert field in response.json()["error"]["details"]
    assert VendorDocument.objects.get(pk=documents["taxClearance"].pk).review_decision == ""


def test_another_vendors_document_cannot_be_reviewed_from_here(clients, under_review, store_documents):
    vendor, _ = under_review
    [theirs] = store_documents(VendorFactory(), ["taxClearance"])
    response = review(clients["admin"], vendor, key=theirs.key, decision="APPROVED")
    error_of(response, 404, "Document not found")
    assert VendorDocument.objects.get(pk=theirs.pk).review_decision == ""


def test_every_required_document_approved_keeps_the_vendor_under_review(clients, under_review):
    vendor, documents = under_review
    for key in REQUIRED_DOCUMENT_KEYS:
        review(clients["compliance_officer"], vendor, key=documents[key].key, decision="APPROVED")
    data = progress(clients["support"], vendor)
    assert data["verificationStatus"] == "UNDER_REVIEW" and data["totalCompleted"] == 6
    assert {e["status"] for k, e in data["documents"].items() if e["required"]} == {"APPROVED"}
