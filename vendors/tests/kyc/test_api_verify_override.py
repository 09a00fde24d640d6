"""Verifying a vendor despite unapproved documents: `override: true` with a reason asks for it (202), a second
eligible person approves it in the one dual-control mechanism, which verifies the vendor once; the requester, a
person the four-eyes rule excludes, or a second approval cannot. Without gaps the flag is ignored."""

import pytest

from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.errors import FourEyesRequired, InvalidTransition, ValidationFailed
from backoffice.models import ApprovalRequest, AuditLog
from backoffice.selectors.approvals import approval_view
from backoffice.services.approvals import approval_approve, approval_reject
from backoffice.tests.factories import StaffFactory
from vendors.choices import VERIFY_OVERRIDE_KIND
from vendors.models import Vendor, VendorKycChange
from vendors.services import vendor_document_review, vendor_kyc_decide, vendor_kyc_verify_override

from .helpers import error_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("approved_documents_required")]


def decide(client, vendor, **body):
    return client.put(f"/api/v1/admin/vendors/{vendor.pk}/kyc/status", body, format="json")


def status_of(vendor) -> str:
    return Vendor.objects.get(pk=vendor.pk).kyc_status


def verified_moves(vendor) -> int:
    return VendorKycChange.objects.filter(vendor=vendor, to_status="VERIFIED").count()


@pytest.fixture
def under_review(vendor, store_documents):
    """Six required documents in, none reviewed (the ``officer`` uploaded them): every slot a gap."""
    store_documents(vendor)
    assert status_of(vendor) == "UNDER_REVIEW"
    return vendor


def ask(staff, vendor, reason="Director known to us, papers checked at the branch"):
    return vendor_kyc_verify_override(vendor=vendor, actor=staff, reason=reason).request


def test_override_without_a_reason_is_400_and_asks_nothing(clients, under_review):
    response = decide(clients["compliance_officer"], under_review, status="VERIFIED", override=True)
    error = error_of(response, 400, "A reason is required to verify without every document approved")
    assert error["details"] == {"reason": ["Required to verify without every document approved."]}
    assert not ApprovalRequest.objects.exists() and status_of(under_review) == "UNDER_REVIEW"
    # the rejection's own message is unchanged
    error_of(decide(clients["mlro"], under_review, status="REJECTED"), 400, "Reason is required to reject")


def test_override_with_gaps_is_202_and_verifies_nothing(staff_client, under_review):
    client, requester = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = decide(client, under_review, status="VERIFIED", override=True, reason="Papers seen at the branch")
    body = response.json()
    assert response.status_code == 202, body
    assert body["success"] is True and body["message"] == "Verification awaiting approval"
    request = body["data"]["approvalRequest"]
    assert request["kind"] == VERIFY_OVERRIDE_KIND and request["status"] == "PENDING"
    assert request["targetType"] == "vendor" and request["targetId"] == str(under_review.pk)
    assert request["requestedBy"] == requester.email and request["reason"] == "Papers seen at the branch"
    assert request["amount"] is None and request["expiresAt"]
    assert status_of(under_review) == "UNDER_REVIEW" and verified_moves(under_review) == 0
    # the gaps, in words, on the request
    stored = ApprovalRequest.objects.get(pk=request["id"])
    lines = approval_view(stored).changes
    assert f"Vendor {under_review.business_name}: KYC status under review → verified" in lines
    assert "Not approved when asked: Tax clearance: Not reviewed" in lines
    assert AuditLog.objects.filter(action="approval.request", actor=requester).exists()
    # a second ask while one waits: 409
    again = decide(client, under_review, status="VERIFIED", override=True, reason="again")
    assert again.status_code == 409 and ApprovalRequest.objects.count() == 1


def test_a_second_person_approves_and_the_vendor_is_verified_once(under_review):
    requester, approver = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER), StaffFactory(role=StaffRole.MLRO)
    request = ask(requester, under_review)
    done = approval_approve(request=request, actor=approver, reason="Agreed: branch visit report on file")
    assert done.status == ApprovalStatus.APPLIED and done.decided_by == approver
    vendor = Vendor.objects.get(pk=under_review.pk)
    assert vendor.kyc_status == "VERIFIED" and vendor.kyc_decided_by == approver
    assert "Asked by " + requester.email in vendor.kyc_decision_reason
    assert "Agreed: branch visit report on file" in vendor.kyc_decision_reason
    assert verified_moves(vendor) == 1
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {"approval.request", "approval.approve", "approval.apply"} <= actions
    # approving twice applies once
    with pytest.raises(InvalidTransition):
        approval_approve(request=request, actor=StaffFactory(role=StaffRole.ADMIN), reason="me too")
    assert verified_moves(vendor) == 1


def test_approving_twice_through_the_api_flow_applies_once(clients, under_review):
    response = decide(clients["compliance_officer"], under_review, status="VERIFIED", override=True, reason="seen")
    request = ApprovalRequest.objects.get(pk=response.json()["data"]["approvalRequest"]["id"])
    approver = StaffFactory(role=StaffRole.ADMIN)
    approval_approve(request=request, actor=approver, reason="ok")
    with pytest.raises(InvalidTransition):
        approval_approve(request=ApprovalRequest.objects.get(pk=request.pk), actor=approver, reason="ok")
    assert verified_moves(under_review) == 1 and status_of(under_review) == "VERIFIED"


def test_the_requester_cannot_approve(under_review):
    requester = StaffFactory(role=StaffRole.ADMIN)
    request = ask(requester, under_review)
    with pytest.raises(FourEyesRequired):
        approval_approve(request=request, actor=requester, reason="myself")
    assert status_of(under_review) == "UNDER_REVIEW"
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.PENDING


def test_whoever_handled_the_documents_cannot_ask_or_approve(under_review, officer):
    """``officer`` uploaded every document: four eyes keeps them out of both sides."""
    with pytest.raises(FourEyesRequired):
        ask(officer, under_review)
    request = ask(StaffFactory(role=StaffRole.MLRO), under_review)
    with pytest.raises(FourEyesRequired):
        approval_approve(request=request, actor=officer, reason="I know them")
    assert status_of(under_review) == "UNDER_REVIEW"
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.PENDING


def test_an_approval_needs_a_reason(under_review):
    request = ask(StaffFactory(role=StaffRole.MLRO), under_review)
    with pytest.raises(ValidationFailed):
        approval_approve(request=request, actor=StaffFactory(role=StaffRole.ADMIN), reason="")
    assert status_of(under_review) == "UNDER_REVIEW"
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.PENDING


def test_rejecting_leaves_the_vendor_as_it_is(under_review):
    request = ask(StaffFactory(role=StaffRole.MLRO), under_review)
    approval_reject(request=request, actor=StaffFactory(role=StaffRole.ADMIN), reason="Get the papers approved")
    assert status_of(under_review) == "UNDER_REVIEW" and verified_moves(under_review) == 0
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.REJECTED


def test_documents_approved_meanwhile_the_approval_still_applies(under_review, officer):
    request = ask(StaffFactory(role=StaffRole.MLRO), under_review)
    for document in under_review.kyc_documents.current():
        vendor_document_review(document=document, actor=officer, decision="APPROVED")
    approval_approve(request=request, actor=StaffFactory(role=StaffRole.ADMIN), reason="ok")
    assert status_of(under_review) == "VERIFIED" and verified_moves(under_review) == 1


def test_a_vendor_decided_meanwhile_lapses_the_request(under_review):
    request = ask(StaffFactory(role=StaffRole.MLRO), under_review)
    vendor_kyc_decide(vendor=under_review, actor=StaffFactory(role=StaffRole.ADMIN), status="REJECTED", reason="no")
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.EXPIRED
    with pytest.raises(InvalidTransition):
        approval_approve(request=request, actor=StaffFactory(role=StaffRole.ADMIN), reason="ok")
    assert status_of(under_review) == "REJECTED"


def test_refusal_order_and_roles(clients, vendor, store_documents):
    store_documents(vendor, keys=["companyRegistration"])  # not under review yet
    response = decide(clients["admin"], vendor, status="VERIFIED", override=True, reason="why not")
    assert response.status_code == 409 and response.json()["error"]["code"] == "INVALID_TRANSITION"
    response = decide(clients["support"], vendor, status="VERIFIED", override=True, reason="why not")
    assert response.status_code == 403
    assert not ApprovalRequest.objects.exists()


def test_without_gaps_the_flag_is_ignored(clients, vendor, store_documents):
    store_documents(vendor, approve=True)
    response = decide(clients["mlro"], vendor, status="VERIFIED", override=True, reason="all approved")
    body = response.json()
    assert response.status_code == 200 and body["message"] == "Vendor KYC status updated", body
    assert status_of(vendor) == "VERIFIED" and not ApprovalRequest.objects.exists()


def test_the_flag_is_ignored_with_the_setting_off(clients, under_review, settings):
    settings.VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS = False
    response = decide(clients["mlro"], under_review, status="VERIFIED", override=True, reason="setting off")
    assert response.status_code == 200 and status_of(under_review) == "VERIFIED"
    assert not ApprovalRequest.objects.exists()


def test_the_request_reads_the_same_once_applied_and_says_when_it_could_not_be(under_review, officer):
    request = ask(StaffFactory(role=StaffRole.MLRO), under_review)
    lines = approval_view(request).changes
    # the slots in their order, as asked
    assert lines[1:3] == [
        "Not approved when asked: Company registration: Not reviewed",
        "Not approved when asked: Tax clearance: Not reviewed",
    ]
    # documents asked for again: the vendor left review, so the approval could only be refused
    document = under_review.kyc_documents.current().get(document_key="taxClearance")
    vendor_document_review(document=document, actor=officer, decision="REREQUESTED", reason_code="UNREADABLE")
    assert (
        approval_view(request).changes[-1] == "The vendor's KYC status is documents submitted now: approving is refused"
    )
    with pytest.raises(InvalidTransition):
        approval_approve(request=request, actor=StaffFactory(role=StaffRole.ADMIN), reason="ok")


def test_an_applied_request_still_reads_as_asked(under_review):
    request = ask(StaffFactory(role=StaffRole.MLRO), under_review)
    done = approval_approve(request=request, actor=StaffFactory(role=StaffRole.ADMIN), reason="ok")
    assert approval_view(done).changes[0] == "Vendor Mbabane Fresh Market: KYC status under review → verified"
