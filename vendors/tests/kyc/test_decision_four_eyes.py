"""Four eyes on a vendor's KYC: whoever uploaded one of its documents, or approved one, does not decide on it
(verify or reject); someone independent does. Services and API."""

import pytest

from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.errors import FourEyesRequired
from backoffice.tests.clients import bearer_client
from backoffice.tests.factories import StaffFactory
from vendors.choices import ReviewDecision
from vendors.models import Vendor
from vendors.services import vendor_document_review, vendor_kyc_decide

pytestmark = pytest.mark.django_db


def status_of(vendor) -> str:
    return Vendor.objects.get(pk=vendor.pk).kyc_status


@pytest.fixture
def under_review(vendor, store_documents):
    store_documents(vendor, approve=True)  # uploaded and approved by the ``officer`` fixture
    assert status_of(vendor) == "UNDER_REVIEW"
    return vendor


@pytest.mark.parametrize("status,reason", [("VERIFIED", ""), ("REJECTED", "Shell company")])
def test_the_uploader_does_not_decide(under_review, officer, status, reason):
    with pytest.raises(FourEyesRequired, match="neither uploaded nor approved"):
        vendor_kyc_decide(vendor=under_review, actor=officer, status=status, reason=reason)
    assert status_of(under_review) == "UNDER_REVIEW"


def test_the_approver_of_a_document_does_not_decide(under_review):
    approver = StaffFactory(role=StaffRole.MLRO)
    document = under_review.kyc_documents.get(document_key="taxClearance")
    vendor_document_review(document=document, actor=approver, decision=ReviewDecision.APPROVED)
    with pytest.raises(FourEyesRequired):
        vendor_kyc_decide(vendor=under_review, actor=approver, status="VERIFIED")
    independent = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    decided = vendor_kyc_decide(vendor=under_review, actor=independent, status="VERIFIED")
    assert decided.kyc_status == "VERIFIED" and decided.kyc_decided_by == independent


def test_the_api_answers_403_four_eyes_required_to_the_uploader(under_review, officer):
    client = bearer_client(tokens.STAFF, officer.pk)
    response = client.put(f"/api/v1/admin/vendors/{under_review.pk}/kyc/status", {"status": "VERIFIED"}, format="json")
    assert response.status_code == 403, response.json()
    assert response.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    assert status_of(under_review) == "UNDER_REVIEW"


def test_a_vendor_not_under_review_is_still_409_for_the_uploader(vendor, store_documents, officer):
    store_documents(vendor, ["taxClearance"])
    client = bearer_client(tokens.STAFF, officer.pk)
    response = client.put(f"/api/v1/admin/vendors/{vendor.pk}/kyc/status", {"status": "VERIFIED"}, format="json")
    assert response.status_code == 409, response.json()
