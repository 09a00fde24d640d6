from decimal import Decimal

import pytest

from backoffice.models import AuditLog
from kyc.models import Transaction
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db


def credit(client, user, amount="150.25", reason="Promotion", key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(user_url(user, "add-balance"), {"amount": amount, "reason": reason}, format="json", **headers)


def test_credit_answers_previous_added_and_new_balance(admin_client_api):
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("100.00"))
    response = credit(admin_client_api, user, amount=150.25)
    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["previousBalance"], data["addedAmount"], data["newBalance"]) == (100.0, 150.25, 250.25)
    user.refresh_from_db()
    assert user.balance == Decimal("250.25")


def test_credit_writes_an_admin_credit_ledger_row_with_reason_and_actor(staff_client):
    client, staff = staff_client("finance")
    user = PlatformUserFactory()
    credit(client, user, reason="Goodwill after outage")
    row = Transaction.objects.get(user=user)
    assert (row.type, row.amount, row.reason, row.actor_id) == (
        "ADMIN_CREDIT",
        Decimal("150.25"),
        "Goodwill after outage",
        staff.pk,
    )
    assert row.balance_after == Decimal("150.25")


def test_the_balance_is_the_sum_the_ledger_explains(admin_client_api):
    user = PlatformUserFactory()
    for amount in ("10.10", "20.20", "0.01"):
        credit(admin_client_api, user, amount=amount)
    user.refresh_from_db()
    assert user.balance == sum(t.signed_amount for t in user.transactions.all()) == Decimal("30.31")


def test_every_credit_is_in_the_audit_log(admin_client_api):
    user = PlatformUserFactory()
    credit(admin_client_api, user)
    entry = AuditLog.objects.get(action="user.credit")
    assert entry.object_id == str(user.pk)
    assert entry.changes["amount"] == "150.25" and entry.changes["reason"] == "Promotion"


@pytest.mark.parametrize(
    "amount,reason,field",
    [
        ("0", "x", "amount"),
        ("-5", "x", "amount"),
        ("1000000.01", "x", "amount"),
        ("10.001", "x", "amount"),
        ("abc", "x", "amount"),
        (None, "x", "amount"),
        ("10", "", "reason"),
        ("10", "   ", "reason"),
        ("10", None, "reason"),
    ],
)
def test_invalid_amount_or_reason_is_400_and_nothing_is_credited(admin_client_api, amount, reason, field):
    user = PlatformUserFactory()
    body = {k: v for k, v in {"amount": amount, "reason": reason}.items() if v is not None}
    response = admin_client_api.post(user_url(user, "add-balance"), body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert field in response.json()["error"]["details"]
    assert not Transaction.objects.exists()


def test_the_maximum_of_one_million_is_accepted(admin_client_api):
    response = credit(admin_client_api, PlatformUserFactory(), amount=1000000)
    assert response.status_code == 200 and response.json()["data"]["newBalance"] == 1000000


def test_a_retry_with_the_same_idempotency_key_returns_the_first_result_without_crediting_again(admin_client_api):
    user = PlatformUserFactory()
    first = credit(admin_client_api, user, key="retry-1")
    second = credit(admin_client_api, user, key="retry-1")
    assert second.status_code == 200
    assert second.json()["data"] == first.json()["data"]
    user.refresh_from_db()
    assert user.balance == Decimal("150.25")
    assert Transaction.objects.filter(user=user).count() == 1
    assert AuditLog.objects.filter(action="user.credit").count() == 1


def test_the_same_key_with_a_different_body_is_422(admin_client_api):
    user = PlatformUserFactory()
    credit(admin_client_api, user, key="k-2")
    response = credit(admin_client_api, user, amount="99.00", key="k-2")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert Transaction.objects.filter(user=user).count() == 1


def test_idempotency_keys_are_scoped_per_staff_member(staff_client):
    first_client, _ = staff_client("finance")
    second_client, _ = staff_client("finance")
    user = PlatformUserFactory()
    credit(first_client, user, key="shared-key")
    credit(second_client, user, key="shared-key")
    user.refresh_from_db()
    assert user.balance == Decimal("300.50")


def test_without_a_key_each_request_credits(admin_client_api):
    user = PlatformUserFactory()
    credit(admin_client_api, user)
    credit(admin_client_api, user)
    user.refresh_from_db()
    assert user.balance == Decimal("300.50")


def test_an_archived_user_cannot_be_credited(admin_client_api):
    user = PlatformUserFactory(is_archived=True)
    response = credit(admin_client_api, user)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "USER_ARCHIVED"


def test_crediting_an_unknown_user_is_404(admin_client_api):
    response = admin_client_api.post(
        "/api/v1/admin/users/5b0c7b4e-2a8a-4b7e-9a55-7c1b9e0f9a10/add-balance",
        {"amount": 5, "reason": "x"},
        format="json",
    )
    assert response.status_code == 404 and response.json()["message"] == "User not found"


@pytest.mark.parametrize(
    "body,fields",
    [
        ({}, {"amount", "reason"}),
        ({"amount": 1.001, "reason": ""}, {"amount", "reason"}),
        ({"amount": "abc", "reason": 42}, {"amount", "reason"}),
        ({"amount": 5, "reason": "ok", "currency": "USD"}, {"currency"}),
    ],
)
def test_every_problem_of_a_credit_body_is_named_in_one_400(admin_client_api, body, fields):
    user = PlatformUserFactory()
    response = admin_client_api.post(user_url(user, "add-balance"), body, format="json")
    assert response.status_code == 400
    assert set(response.json()["error"]["details"]) == fields
    assert not Transaction.objects.filter(user=user).exists()
