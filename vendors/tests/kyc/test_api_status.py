"""PUT .../kyc/status: the staff decision, only from UNDER_REVIEW, and how the status follows the documents after."""

import pytest

from backoffice.models import AuditLog
from vendors.models import Vendor, VendorKycChange

from .helpers import error_of

pytestmark = pytest.mark.django_db


def decide(client, vendor, **body):
    return client.put(f"/api/v1/admin/vendors/{vendor.pk}/kyc/status", body, format="json")


def status_of(vendor) -> str:
    return Vendor.objects.get(pk=vendor.pk).kyc_status


@pytest.fixture
def under_review(vendor, store_documents):
    store_documents(vendor, approve=True)  # a verification needs every required document approved
    assert status_of(vendor) == "UNDER_REVIEW"
    return vendor


@pytest.mark.parametrize("role", ["compliance_officer", "mlro", "admin"])
def test_compliance_staff_verify_a_vendor_under_review(clients, staff_client, under_review, role):
    client, staff = staff_client(role)
    response = decide(client, under_review, status="VERIFIED", reason="All papers in order")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["message"] == "Vendor KYC status updated"
    data = body["data"]
    assert (data["vendorId"], data["verificationStatus"], data["reason"]) == (
        str(under_review.pk),
        "VERIFIED",
        "All papers in order",
    )
    assert data["decidedBy"] == str(staff.pk) and data["decidedAt"].endswith("Z")
    change = VendorKycChange.objects.filter(vendor=under_review).last()
    assert (change.from_status, change.to_status, change.actor, change.note) == (
        "UNDER_REVIEW",
        "VERIFIED",
        staff,
        "All papers in order",
    )
    assert AuditLog.objects.filter(action="vendor.kyc.status", object_id=str(under_review.pk)).exists()


def test_a_rejection_needs_a_reason(clients, under_review):
    response = decide(clients["mlro"], under_review, status="REJECTED")
    error = error_of(response, 400, "Reason is required to reject")
    assert error["code"] == "VALIDATION_ERROR" and "reason" in error["details"]
    assert status_of(under_review) == "UNDER_REVIEW"
    response = decide(clients["mlro"], under_review, status="REJECTED", reason="Director is not on the register")
    assert response.status_code == 200 and response.json()["data"]["verificationStatus"] == "REJECTED"


def test_a_verification_needs_no_reason(clients, under_review):
    response = decide(clients["compliance_officer"], under_review, status="VERIFIED")
    assert response.status_code == 200 and response.json()["data"]["reason"] == ""


@pytest.mark.parametrize("status", ["PENDING", "DOCUMENTS_SUBMITTED", "UNDER_REVIEW", "verified", "", None, 3])
def test_only_verified_or_rejected_may_be_asked_for(clients, under_review, status):
    response = decide(clients["admin"], under_review, status=status, reason="x")
    assert error_of(response, 400, "Invalid status")["code"] == "VALIDATION_ERROR"
    assert status_of(under_review) == "UNDER_REVIEW"


def test_a_missing_status_is_400(clients, under_review):
    error_of(decide(clients["admin"], under_review, reason="x"), 400, "Invalid status")


@pytest.mark.parametrize("documents", [0, 3])
def test_a_vendor_not_under_review_is_409(clients, vendor, store_documents, documents):
    from vendors.choices import REQUIRED_DOCUMENT_KEYS

    store_documents(vendor, REQUIRED_DOCUMENT_KEYS[:documents])
    current = status_of(vendor)
    for status in ("VERIFIED", "REJECTED"):
        response = decide(clients["admin"], vendor, status=status, reason="x")
        error = error_of(response, 409, f"Cannot move vendor KYC from {current} to {status}")
        assert error["code"] == "INVALID_TRANSITION"
    assert status_of(vendor) == current


def test_a_decided_vendor_cannot_be_decided_again(clients, under_review):
    assert decide(clients["admin"], under_review, status="VERIFIED").status_code == 200
    for status in ("VERIFIED", "REJECTED"):
        response = decide(clients["admin"], under_review, status=status, reason="second thoughts")
        error_of(response, 409, f"Cannot move vendor KYC from VERIFIED to {status}")


def test_an_unknown_vendor_is_404(clients):
    import uuid

    error_of(decide(clients["admin"], type("V", (), {"pk": uuid.uuid4()}), status="VERIFIED"), 404, "Vendor not found")


def test_a_rerequested_document_sends_a_verified_vendor_back(clients, under_review):
    decide(clients["admin"], under_review, status="VERIFIED")
    key = under_review.kyc_documents.get(document_key="taxClearance").key
    response = clients["admin"].put(
        f"/api/v1/admin/vendors/{under_review.pk}/kyc/documents/review",
        {"key": key, "decision": "REREQUESTED", "reasonCode": "EXPIRED"},
        format="json",
    )
    assert response.json()["data"]["verificationStatus"] == "DOCUMENTS_SUBMITTED"


def test_a_new_required_file_reopens_a_decision_and_an_optional_one_does_not(clients, under_review, upload):
    decide(clients["admin"], under_review, status="REJECTED", reason="Wrong director")
    upload(under_review, "other")
    assert status_of(under_review) == "REJECTED"
    key = upload(under_review, "directorId").json()["data"]["key"]
    assert status_of(under_review) == "UNDER_REVIEW"
    review = {"key": key, "decision": "APPROVED"}  # the new paper is reviewed before anyone verifies on it
    clients["mlro"].put(f"/api/v1/admin/vendors/{under_review.pk}/kyc/documents/review", review, format="json")
    assert decide(clients["admin"], under_review, status="VERIFIED").status_code == 200
    upload(under_review, "tradingLicense")
    assert status_of(under_review) == "VERIFIED"


def test_the_history_records_every_move_in_order(clients, vendor, store_documents):
    store_documents(vendor, approve=True)
    decide(clients["admin"], vendor, status="VERIFIED")
    moves = list(VendorKycChange.objects.filter(vendor=vendor).values_list("from_status", "to_status"))
    assert moves == [
        ("PENDING", "DOCUMENTS_SUBMITTED"),
        ("DOCUMENTS_SUBMITTED", "UNDER_REVIEW"),
        ("UNDER_REVIEW", "VERIFIED"),
    ]
