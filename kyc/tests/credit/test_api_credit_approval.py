"""Maker-checker: with CREDIT_APPROVAL_THRESHOLD set, a credit above it waits for a second finance or admin person."""

from decimal import Decimal

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from kyc.models import CreditRequest, Transaction
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import user_url

REQUESTS = "/api/v1/admin/users/credit-requests"


@pytest.fixture
def threshold(settings):
    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("5000.00")


def credit(client, user, amount, reason="Refund of a failed card payment", key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(user_url(user, "add-balance"), {"amount": amount, "reason": reason}, format="json", **headers)


def test_without_a_threshold_every_credit_is_immediate(staff_client):
    client, _ = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    r = credit(client, user, 900000)
    assert r.status_code == 200 and r.json()["data"]["newBalance"] == 900000.0


def test_at_the_threshold_the_credit_is_immediate(staff_client, threshold):
    client, _ = staff_client(StaffRole.FINANCE)
    r = credit(client, PlatformUserFactory(), 5000)
    assert r.status_code == 200 and r.json()["message"] == "Balance added"


def test_above_the_threshold_the_credit_waits_and_moves_no_money(staff_client, threshold):
    client, maker = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    r = credit(client, user, 5000.01)
    assert r.status_code == 202, r.json()
    body = r.json()
    assert body["success"] is True and body["message"] == "Credit awaiting approval"
    request = body["data"]["creditRequest"]
    assert {k: request[k] for k in ("userId", "amount", "reason", "requestedBy", "status")} == {
        "userId": str(user.pk),
        "amount": 5000.01,
        "reason": "Refund of a failed card payment",
        "requestedBy": str(maker.pk),
        "status": "PENDING",
    }
    assert request["id"] and request["createdAt"]
    user.refresh_from_db()
    assert user.balance == 0 and not Transaction.objects.filter(user=user).exists()
    assert AuditLog.objects.filter(action="user.credit_request", actor=maker, object_id=str(user.pk)).exists()


def test_a_second_person_approves_and_the_wallet_is_credited_once(staff_client, threshold):
    maker_client, maker = staff_client(StaffRole.FINANCE)
    checker_client, checker = staff_client(StaffRole.ADMIN)
    user = PlatformUserFactory()
    request_id = credit(maker_client, user, 12000, key="k-1").json()["data"]["creditRequest"]["id"]

    listed = checker_client.get(REQUESTS, {"status": "PENDING"}).json()
    assert [item["id"] for item in listed["data"]] == [request_id] and listed["pagination"]["total"] == 1

    r = checker_client.post(f"{REQUESTS}/{request_id}/approve", {}, format="json")
    assert r.status_code == 200, r.json()
    approved = r.json()["data"]["creditRequest"]
    assert approved["status"] == "APPROVED" and approved["decidedBy"] == str(checker.pk)
    assert approved["newBalance"] == 12000.0 and approved["transactionId"]
    user.refresh_from_db()
    assert user.balance == Decimal("12000.00")
    row = Transaction.objects.get(user=user)
    assert (row.type, row.amount, row.actor_id) == ("ADMIN_CREDIT", Decimal("12000.00"), maker.pk)

    again = checker_client.post(f"{REQUESTS}/{request_id}/approve", {}, format="json")
    assert again.status_code == 409
    retry = credit(maker_client, user, 12000, key="k-1")
    assert retry.status_code == 202
    assert retry.json()["data"]["creditRequest"] == {
        **approved,
        "createdAt": retry.json()["data"]["creditRequest"]["createdAt"],
    }
    user.refresh_from_db()
    assert user.balance == Decimal("12000.00") and Transaction.objects.filter(user=user).count() == 1
    entry = AuditLog.objects.get(action="user.credit_approve")
    assert entry.actor == checker and entry.changes["requested_by"] == maker.email


def test_the_requester_cannot_approve_or_reject(staff_client, threshold):
    client, _ = staff_client(StaffRole.ADMIN)
    request_id = credit(client, PlatformUserFactory(), 6000).json()["data"]["creditRequest"]["id"]
    for action, body in (("approve", {}), ("reject", {"reason": "no"})):
        r = client.post(f"{REQUESTS}/{request_id}/{action}", body, format="json")
        assert r.status_code == 403 and r.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    assert CreditRequest.objects.get(pk=request_id).status == "PENDING"


def test_rejection_needs_a_reason_and_moves_no_money(staff_client, threshold):
    maker_client, _ = staff_client(StaffRole.FINANCE)
    checker_client, checker = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    request_id = credit(maker_client, user, 7000, key="k-2").json()["data"]["creditRequest"]["id"]
    assert checker_client.post(f"{REQUESTS}/{request_id}/reject", {}, format="json").status_code == 400
    r = checker_client.post(f"{REQUESTS}/{request_id}/reject", {"reason": "No ticket for this refund"}, format="json")
    assert r.status_code == 200
    data = r.json()["data"]["creditRequest"]
    assert (data["status"], data["decisionReason"], data["transactionId"]) == (
        "REJECTED",
        "No ticket for this refund",
        None,
    )
    assert checker_client.post(f"{REQUESTS}/{request_id}/approve", {}, format="json").status_code == 409
    retry = credit(maker_client, user, 7000, key="k-2")
    assert retry.status_code == 202 and retry.json()["data"]["creditRequest"]["status"] == "REJECTED"
    user.refresh_from_db()
    assert user.balance == 0
    assert AuditLog.objects.filter(action="user.credit_reject", actor=checker).exists()


def test_a_retry_of_a_pending_credit_returns_the_same_request(staff_client, threshold):
    client, _ = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    first = credit(client, user, 8000, key="same").json()["data"]["creditRequest"]
    second = credit(client, user, 8000, key="same")
    assert second.status_code == 202 and second.json()["data"]["creditRequest"] == first
    assert CreditRequest.objects.count() == 1


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO])
def test_only_finance_and_admin_see_and_decide_credits(staff_client, threshold, role):
    maker_client, _ = staff_client(StaffRole.FINANCE)
    request_id = credit(maker_client, PlatformUserFactory(), 9000).json()["data"]["creditRequest"]["id"]
    client, _ = staff_client(role)
    assert client.get(REQUESTS).status_code == 403
    assert client.post(f"{REQUESTS}/{request_id}/approve", {}, format="json").status_code == 403


def test_unknown_requests_are_404(staff_client):
    client, _ = staff_client(StaffRole.ADMIN)
    for ref in ("00000000-0000-0000-0000-000000000000", "nope"):
        r = client.post(f"{REQUESTS}/{ref}/approve", {}, format="json")
        assert r.status_code == 404 and r.json()["message"] == "Credit request not found"


def test_the_list_filters_by_status(staff_client, threshold):
    client, _ = staff_client(StaffRole.FINANCE)
    user = PlatformUserFactory()
    credit(client, user, 100)
    credit(client, user, 6000)
    assert [r["status"] for r in client.get(REQUESTS).json()["data"]] == ["PENDING", "CREDITED"]
    assert client.get(REQUESTS, {"status": "CREDITED"}).json()["pagination"]["total"] == 1
    assert client.get(REQUESTS, {"status": "MAYBE"}).status_code == 400
