"""The vendor page's "Verify anyway (needs a second person)": shown only while documents are not approved, it asks
with a reason; the request waits in the one queue "Waiting for my approval", where another person approves it
with a reason and the vendor is verified once. Forged posts (no reason, a role that may not decide, someone the
four-eyes rule excludes, the requester approving) change nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.models import ApprovalRequest
from backoffice.tests.factories import StaffFactory
from vendors.choices import VERIFY_OVERRIDE_KIND
from vendors.models import Vendor, VendorKycChange

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("approved_documents_required")]

QUEUE = "admin:backoffice_approvalrequest_changelist"
ASK_BUTTON = "Verify anyway (needs a second person)"


def web(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def page_of(vendor) -> str:
    return reverse("admin:vendors_vendor_change", args=[vendor.pk])


def override_url(vendor) -> str:
    return reverse("admin:vendors_vendor_kyc_override", args=[vendor.pk])


def decision_url(request, what) -> str:
    return reverse("admin:backoffice_approvalrequest_change", args=[request.pk]).replace("/change/", f"/{what}/")


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def status_of(vendor) -> str:
    return Vendor.objects.get(pk=vendor.pk).kyc_status


@pytest.fixture
def under_review(vendor, store_documents):
    """Six required documents in, uploaded by ``officer``, none reviewed."""
    store_documents(vendor)
    assert status_of(vendor) == "UNDER_REVIEW"
    return vendor


def test_ask_from_the_vendor_page_then_a_second_person_approves_in_the_queue(under_review):
    requester, approver = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER), StaffFactory(role=StaffRole.MLRO)
    mine = web(requester)
    page = mine.get(page_of(under_review)).content.decode()
    assert ASK_BUTTON in page and 'id="kyc-override"' in page and 'data-decision="VERIFIED"' not in page

    # no reason: refused as a message, nothing asked
    response = mine.post(override_url(under_review), {"reason": "  "}, follow=True)
    (message,) = messages_of(response)
    assert message.startswith("A reason is required to verify without every document approved")
    assert not ApprovalRequest.objects.exists()

    response = mine.post(override_url(under_review), {"reason": "Papers seen at the branch"}, follow=True)
    (message,) = messages_of(response)
    assert message.startswith("Verifying Mbabane Fresh Market without every document approved now waits")
    request = ApprovalRequest.objects.get(kind=VERIFY_OVERRIDE_KIND)
    assert request.requested_by == requester and request.reason == "Papers seen at the branch"
    assert status_of(under_review) == "UNDER_REVIEW"
    # the page now says it waits, and offers no second ask
    page = mine.get(page_of(under_review)).content.decode()
    assert 'data-testid="override-pending"' in page and ASK_BUTTON not in page

    # the requester's queue does not offer it; the second person's does, in words
    assert request.pk not in [row.pk for row in mine.get(reverse(QUEUE)).context["cl"].result_list]
    theirs = web(approver)
    assert request.pk in [row.pk for row in theirs.get(reverse(QUEUE)).context["cl"].result_list]
    detail = theirs.get(reverse("admin:backoffice_approvalrequest_change", args=[request.pk])).content.decode()
    assert "Vendor Mbabane Fresh Market: KYC status under review → verified" in detail
    assert "Not approved when asked: Tax clearance: Not reviewed" in detail

    # the requester cannot approve it (the form says so, a forged post is refused)
    assert "a second person must decide it" in mine.get(decision_url(request, "approve")).content.decode()
    mine.post(decision_url(request, "approve"), {"reason": "my own"})
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.PENDING

    done = theirs.post(decision_url(request, "approve"), {"reason": "Branch report on file"}, follow=True)
    assert "Approved and applied" in done.content.decode()
    assert status_of(under_review) == "VERIFIED"
    # approved twice (a double click): applied once
    theirs.post(decision_url(request, "approve"), {"reason": "Branch report on file"})
    assert VendorKycChange.objects.filter(vendor=under_review, to_status="VERIFIED").count() == 1
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.APPLIED


def test_forged_asks_by_a_role_that_may_not_decide_or_a_document_handler_change_nothing(under_review, officer):
    support = web(StaffFactory(role=StaffRole.SUPPORT))
    assert ASK_BUTTON not in support.get(page_of(under_review)).content.decode()
    assert support.post(override_url(under_review), {"reason": "forged"}).status_code == 403
    # ``officer`` uploaded the documents: no decision form, and a forged ask is refused by the service
    handler = web(officer)
    assert ASK_BUTTON not in handler.get(page_of(under_review)).content.decode()
    response = handler.post(override_url(under_review), {"reason": "forged"}, follow=True)
    (message,) = messages_of(response)
    assert "four eyes" in message
    assert not ApprovalRequest.objects.exists() and status_of(under_review) == "UNDER_REVIEW"


def test_no_ask_offered_when_every_document_is_approved(vendor, store_documents):
    store_documents(vendor, approve=True)
    page = web(StaffFactory(role=StaffRole.ADMIN)).get(page_of(vendor)).content.decode()
    assert ASK_BUTTON not in page and 'data-decision="VERIFIED"' in page


def test_a_second_person_may_reject_and_the_vendor_stays_under_review(under_review):
    web(StaffFactory(role=StaffRole.ADMIN)).post(override_url(under_review), {"reason": "Known to us"})
    request = ApprovalRequest.objects.get(kind=VERIFY_OVERRIDE_KIND)
    checker = web(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    checker.post(decision_url(request, "reject"), {"reason": "Approve the papers first"})
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.REJECTED
    assert status_of(under_review) == "UNDER_REVIEW"
    # the page offers a new ask again
    assert ASK_BUTTON in checker.get(page_of(under_review)).content.decode()
