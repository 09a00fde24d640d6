"""The held queue: list oldest first, release (money moves once) or reject with a note, by compliance roles only."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from backoffice.choices import StaffRole
from compliance.aml.tests.transactions.helpers import HELD, INTAKE, body, make_rule
from kyc.models import Transaction

pytestmark = pytest.mark.django_db


@pytest.fixture
def hold_rule(db):
    return make_rule("threshold", action="hold", thresholdAmount=500)


def held(key_client, post, user, amount="600", **fields):
    data = post(key_client, INTAKE, body(user, amount, **fields))
    assert data.status_code == 201 and data.json()["data"]["status"] == "HELD", data.content
    return data.json()["data"]["transactionId"]


def test_the_queue_lists_held_rows_oldest_first_with_their_hits(key_client, post, user, hold_rule, staff_client):
    now = timezone.now()
    newer = held(key_client, post, user, occurredAt=(now - dt.timedelta(hours=1)).isoformat())
    older = held(key_client, post, user, occurredAt=(now - dt.timedelta(hours=5)).isoformat())
    post(key_client, INTAKE, body(user, "10"))  # allowed: not in the queue
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    r = client.get(HELD)
    assert r.status_code == 200
    payload = r.json()
    assert [row["id"] for row in payload["data"]] == [older, newer]
    assert payload["pagination"] == {"page": 1, "limit": 20, "total": 2, "totalPages": 1}
    row = payload["data"][0]
    assert row["user"] == {"id": str(user.pk), "firstName": user.first_name, "lastName": user.last_name}
    assert row["status"] == "HELD" and row["amount"] == 600.0 and row["type"] == "TOP_UP"
    assert row["hits"] == [{"ruleId": hold_rule.rule_id, "ruleVersion": 1, "severity": "HIGH", "action": "HOLD"}]
    assert client.get(HELD, {"limit": 1, "page": 2}).json()["data"][0]["id"] == newer


def test_release_moves_the_money_once_and_a_second_decision_is_409(key_client, post, user, hold_rule, staff_client):
    tx_id = held(key_client, post, user, "600", type="WITHDRAWAL")
    client, officer = staff_client(StaffRole.MLRO)
    r = client.post(f"{HELD}/{tx_id}/release", {"note": "Customer called, school fees"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["data"]["status"] == "COMPLETED" and r.json()["data"]["balanceAfter"] == 400.0
    user.refresh_from_db()
    assert user.balance == Decimal("400.00")
    tx = Transaction.objects.get(pk=tx_id)
    assert tx.reviewed_by == officer and tx.review_note == "Customer called, school fees"
    for verb in ("release", "reject"):
        r = client.post(f"{HELD}/{tx_id}/{verb}", {"note": "again"}, format="json")
        assert r.status_code == 409 and r.json()["error"]["code"] == "INVALID_TRANSITION"
    user.refresh_from_db()
    assert user.balance == Decimal("400.00")


def test_release_without_the_balance_is_409_and_the_row_stays_held(key_client, post, user, hold_rule, staff_client):
    tx_id = held(key_client, post, user, "1500", type="WITHDRAWAL")  # held although beyond the balance
    client, _ = staff_client(StaffRole.ADMIN)
    r = client.post(f"{HELD}/{tx_id}/release", {"note": "ok"}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "INSUFFICIENT_FUNDS"
    assert Transaction.objects.get(pk=tx_id).status == "HELD"
    user.refresh_from_db()
    assert user.balance == Decimal("1000.00")


def test_reject_records_rejected_and_moves_nothing(key_client, post, user, hold_rule, staff_client):
    tx_id = held(key_client, post, user, "700")
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    r = client.post(f"{HELD}/{tx_id}/reject", {"note": "Mule pattern"}, format="json")
    assert r.status_code == 200 and r.json()["data"]["status"] == "REJECTED"
    user.refresh_from_db()
    assert user.balance == Decimal("1000.00")
    assert client.get(HELD).json()["pagination"]["total"] == 0


def test_a_note_is_required_and_unknown_ids_are_404(key_client, post, user, hold_rule, staff_client):
    tx_id = held(key_client, post, user)
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    for bad in ({}, {"note": ""}, {"note": "   "}, {"note": 5}):
        r = client.post(f"{HELD}/{tx_id}/release", bad, format="json")
        assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR", bad
    assert Transaction.objects.get(pk=tx_id).status == "HELD"
    for missing in ("00000000-0000-0000-0000-000000000000", "not-a-uuid"):
        assert client.post(f"{HELD}/{missing}/release", {"note": "x"}, format="json").status_code == 404


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_never_see_the_queue(key_client, post, user, hold_rule, staff_client, role):
    tx_id = held(key_client, post, user)
    client, _ = staff_client(role)
    assert client.get(HELD).status_code == 403
    assert client.post(f"{HELD}/{tx_id}/release", {"note": "x"}, format="json").status_code == 403
    assert client.post(f"{HELD}/{tx_id}/reject", {"note": "x"}, format="json").status_code == 403


def test_the_users_transactions_show_held_blocked_and_rejected_rows(key_client, post, user, staff_client):
    make_rule("threshold", action="hold", thresholdAmount=500)
    make_rule("threshold", action="block", thresholdAmount=800)
    held_id = held(key_client, post, user, "600")
    blocked = post(key_client, INTAKE, body(user, "900")).json()["data"]["transactionId"]
    rejected = held(key_client, post, user, "650")
    allowed = post(key_client, INTAKE, body(user, "50")).json()["data"]["transactionId"]
    client, _ = staff_client(StaffRole.ADMIN)
    client.post(f"{HELD}/{rejected}/reject", {"note": "no"}, format="json")
    rows = client.get(f"/api/v1/admin/users/{user.pk}/transactions").json()["data"]
    assert {row["id"]: row["status"] for row in rows} == {
        held_id: "HELD",
        blocked: "BLOCKED",
        rejected: "REJECTED",
        allowed: "COMPLETED",
    }
    user.refresh_from_db()
    assert user.balance == Decimal("1050.00")
