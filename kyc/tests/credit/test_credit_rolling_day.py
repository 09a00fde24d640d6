"""Credits judged per wallet and per requester over a rolling day (issue 29): splitting a credit never avoids the
second person, through the API, the admin form and the approval queue; the approver sees the wallet's recent
credits."""

import uuid
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.models import ApprovalRequest
from backoffice.selectors.approvals import approval_view, approvals_waiting_for
from backoffice.services.approvals import approval_approve, approval_reject
from backoffice.tests.factories import StaffFactory
from kyc.models import CreditRequest, Transaction
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db

REQUESTS = "/api/v1/admin/users/credit-requests"


@pytest.fixture(autouse=True)
def threshold(settings):
    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("10000.00")


def credit(client, user, amount, reason="Promotion"):
    return client.post(user_url(user, "add-balance"), {"amount": amount, "reason": reason}, format="json")


def test_four_credits_of_5000_to_one_wallet_need_a_second_person_once_the_day_passes_the_threshold(staff_client):
    client, maker = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    answers = [credit(client, user, 5000) for _ in range(4)]
    # 5,000 and 10,000 are at most the threshold; 15,000 and 20,000 (pending ones count) are above it
    assert [a.status_code for a in answers] == [200, 200, 202, 202]
    assert [a.json()["message"] for a in answers[2:]] == ["Credit awaiting approval"] * 2
    user.refresh_from_db()
    assert user.balance == Decimal("10000.00")
    pending = ApprovalRequest.objects.filter(kind="kyc.credit", status=ApprovalStatus.PENDING).order_by("created_at")
    # each request carries the day's total it was judged on
    assert [r.amount for r in pending] == [Decimal("15000.00"), Decimal("20000.00")]
    assert {r.requested_by_id for r in pending} == {maker.pk}


def test_the_window_is_per_requester_and_rolling(staff_client):
    client, maker = staff_client(StaffRole.FINANCE)
    other_client, _ = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    assert credit(client, user, 9000).status_code == 200
    # another person's credits are their own window (contract: one requester, one wallet)
    assert credit(other_client, user, 9000).status_code == 200
    # the same person again within the day: 18,000 together
    assert credit(client, user, 9000).status_code == 202
    # a day later the first credits no longer count
    CreditRequest.objects.filter(requested_by=maker).update(created_at=timezone.now() - timedelta(hours=25))
    assert credit(client, user, 9000).status_code == 200


def test_a_rejected_credit_no_longer_counts(staff_client):
    client, _ = staff_client(StaffRole.FINANCE)
    checker_client, _ = staff_client(StaffRole.ADMIN)
    user = PlatformUserFactory()
    request_id = credit(client, user, 12000).json()["data"]["creditRequest"]["id"]
    assert checker_client.post(f"{REQUESTS}/{request_id}/reject", {"reason": "no"}, format="json").status_code == 200
    assert credit(client, user, 4000).status_code == 200


def test_approved_from_the_queue_the_wallet_is_credited_once_and_the_api_sees_it_decided(staff_client):
    client, maker = staff_client(StaffRole.FINANCE)
    checker_client, checker = staff_client(StaffRole.ADMIN)
    user = PlatformUserFactory()
    credit(client, user, 6000)
    request_id = credit(client, user, 6000).json()["data"]["creditRequest"]["id"]
    approval = ApprovalRequest.objects.get(kind="kyc.credit", target_id=request_id)
    assert list(approvals_waiting_for(checker)) == [approval]
    assert list(approvals_waiting_for(maker)) == []

    view = approval_view(approval)
    assert any("12,000.00" in line and "24 hours" in line for line in view.changes), view.changes
    # the approver sees the wallet's recent credits, the one that landed and the one waiting
    assert len(view.context) == 2 and all("SZL 6,000.00" in line for line in view.context)

    approval_approve(request=approval, actor=checker, reason="campaign budget checked")
    user.refresh_from_db()
    assert user.balance == Decimal("12000.00")
    assert Transaction.objects.filter(user=user).count() == 2
    row = CreditRequest.objects.get(pk=request_id)
    assert (row.status, row.decided_by_id, row.decision_reason) == ("APPROVED", checker.pk, "campaign budget checked")
    # the credit endpoint answers as for any decided request
    assert checker_client.post(f"{REQUESTS}/{request_id}/approve", {}, format="json").status_code == 409
    user.refresh_from_db()
    assert user.balance == Decimal("12000.00")


def test_approved_through_the_api_its_approval_request_is_applied_too(staff_client):
    client, _ = staff_client(StaffRole.FINANCE)
    checker_client, checker = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    request_id = credit(client, user, 12000).json()["data"]["creditRequest"]["id"]
    assert checker_client.post(f"{REQUESTS}/{request_id}/approve", {}, format="json").status_code == 200
    approval = ApprovalRequest.objects.get(kind="kyc.credit", target_id=request_id)
    assert (approval.status, approval.decided_by_id) == (ApprovalStatus.APPLIED, checker.pk)
    assert list(approvals_waiting_for(checker)) == []


def test_rejected_from_the_queue_the_credit_request_is_rejected(staff_client):
    client, _ = staff_client(StaffRole.FINANCE)
    checker = StaffFactory(role=StaffRole.FINANCE)
    user = PlatformUserFactory()
    request_id = credit(client, user, 12000).json()["data"]["creditRequest"]["id"]
    approval = ApprovalRequest.objects.get(kind="kyc.credit", target_id=request_id)
    approval_reject(request=approval, actor=checker, reason="split credit, ask once")
    row = CreditRequest.objects.get(pk=request_id)
    assert (row.status, row.decision_reason) == ("REJECTED", "split credit, ask once")
    user.refresh_from_db()
    assert user.balance == 0


def test_the_requester_alone_cannot_approve_through_the_api_or_the_queue(staff_client):
    client, maker = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    credit(client, user, 8000)
    request_id = credit(client, user, 8000).json()["data"]["creditRequest"]["id"]
    r = client.post(f"{REQUESTS}/{request_id}/approve", {}, format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    web = Client()
    web.force_login(maker)
    approval = ApprovalRequest.objects.get(target_id=request_id)
    url = reverse("admin:backoffice_approvalrequest_change", args=[approval.pk]).replace("/change/", "/approve/")
    web.post(url, {"reason": "me again"})
    user.refresh_from_db()
    assert user.balance == Decimal("8000.00")
    approval.refresh_from_db()
    assert approval.status == ApprovalStatus.PENDING


def test_the_admin_credit_form_splits_are_caught_too():
    maker = StaffFactory(role=StaffRole.FINANCE)
    web = Client()
    web.force_login(maker)
    user = PlatformUserFactory()
    url = reverse("admin:kyc_platformuser_change", args=[user.pk]).replace("/change/", "/credit/")
    for _ in range(3):
        key = uuid.uuid4().hex
        body = {"amount": "5000", "reason": "Promotion", "confirm": "on", "idempotency_key": key}
        page = web.post(f"{url}?key={key}", body, follow=True)
    assert "waits for a second" in page.content.decode()
    user.refresh_from_db()
    assert user.balance == Decimal("10000.00")
    assert ApprovalRequest.objects.filter(kind="kyc.credit", status=ApprovalStatus.PENDING).count() == 1
