"""POST /admin/aml/transactions: the decision before the money moves, as the contract pins it."""

from decimal import Decimal

import pytest

from compliance.aml.models.alerts import Alert
from compliance.aml.tests.transactions.helpers import DRY_RUN, INTAKE, body, make_rule
from kyc.models import Transaction

pytestmark = pytest.mark.django_db


def test_an_allowed_credit_moves_the_money_and_answers_201(key_client, user, post):
    r = post(key_client, INTAKE, body(user, "250.50"))
    assert r.status_code == 201, r.content
    data = r.json()["data"]
    assert data["status"] == "COMPLETED" and data["decision"] == "ALLOW" and data["hits"] == []
    assert data["balance"] == 1250.5 and isinstance(data["tookMs"], int)
    tx = Transaction.objects.get(pk=data["transactionId"])
    assert tx.external_id == data["externalId"] and tx.balance_after == Decimal("1250.50")
    user.refresh_from_db()
    assert user.balance == Decimal("1250.50")


def test_a_hold_rule_records_the_row_held_and_moves_no_money(key_client, user, post):
    rule = make_rule("threshold", action="hold", thresholdAmount=500)
    r = post(key_client, INTAKE, body(user, "600", type="WITHDRAWAL"))
    assert r.status_code == 201, r.content
    data = r.json()["data"]
    assert data["status"] == "HELD" and data["decision"] == "REVIEW"
    assert data["hits"] == [{"ruleId": rule.rule_id, "ruleVersion": 1, "severity": "HIGH", "action": "HOLD"}]
    assert data["balance"] == 1000.0
    user.refresh_from_db()
    assert user.balance == Decimal("1000.00")
    alert = Alert.objects.get()
    assert alert.rule_id == rule.pk and alert.rule_version == 1
    assert [str(t.pk) for t in alert.related_transactions.all()] == [data["transactionId"]]


def test_block_beats_hold_and_is_recorded_whatever_the_balance(key_client, user, post):
    make_rule("threshold", action="hold", thresholdAmount=500)
    blocker = make_rule("threshold", action="block", thresholdAmount=5000, severity="CRITICAL")
    make_rule("threshold", thresholdAmount=100, severity="MEDIUM")
    r = post(key_client, INTAKE, body(user, "9000", type="WITHDRAWAL"))
    assert r.status_code == 201, r.content
    data = r.json()["data"]
    assert data["status"] == "BLOCKED" and data["decision"] == "BLOCK"
    assert sorted(h["action"] for h in data["hits"]) == ["ALERT", "BLOCK", "HOLD"]
    assert {h["ruleId"] for h in data["hits"] if h["action"] == "BLOCK"} == {blocker.rule_id}
    user.refresh_from_db()
    assert user.balance == Decimal("1000.00") and Alert.objects.count() == 3


def test_an_alert_only_hit_allows_and_raises_its_alert(key_client, user, post):
    make_rule("threshold", thresholdAmount=100, severity="MEDIUM")
    data = post(key_client, INTAKE, body(user, "200")).json()["data"]
    assert data["decision"] == "ALLOW" and data["hits"][0]["action"] == "ALERT"
    assert Alert.objects.count() == 1


def test_an_allowed_debit_beyond_the_balance_is_409_and_records_nothing(key_client, user, post):
    r = post(key_client, INTAKE, body(user, "1000.01", type="CARD_PAYMENT"))
    assert r.status_code == 409 and r.json()["error"]["code"] == "INSUFFICIENT_FUNDS"
    assert not Transaction.objects.exists()


def test_the_same_external_id_answers_200_with_the_first_answer(key_client, user, post):
    make_rule("threshold", action="hold", thresholdAmount=500)
    first = post(key_client, INTAKE, body(user, "600", externalId="pay-1"))
    again = post(key_client, INTAKE, body(user, "5", externalId="pay-1", type="WITHDRAWAL"))
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["data"] == first.json()["data"]
    assert Transaction.objects.count() == 1 and Alert.objects.count() == 1


def test_unknown_user_404_archived_409_and_bad_input_400(key_client, user, post):
    from kyc.tests.factories import PlatformUserFactory

    r = post(key_client, INTAKE, body(user, userId="00000000-0000-0000-0000-000000000000"))
    assert r.status_code == 404 and r.json()["message"] == "User not found"
    archived = PlatformUserFactory(is_archived=True)
    r = post(key_client, INTAKE, body(archived))
    assert r.status_code == 409 and r.json()["error"]["code"] == "ACCOUNT_ARCHIVED"
    for bad in (
        {"type": "ADMIN_CREDIT"},
        {"amount": 0},
        {"amount": "1.234"},
        {"amount": 1000000.01},
        {"channel": "PIGEON"},
        {"externalId": "x" * 101},
        {"externalId": None},
        {"occurredAt": "yesterday"},
        {"counterpartyUserId": "00000000-0000-0000-0000-000000000000"},
        {"surprise": 1},
    ):
        r = post(key_client, INTAKE, body(user, **bad))
        assert r.status_code == 400, (bad, r.content)
        assert r.json()["error"]["code"] == "VALIDATION_ERROR"
    assert not Transaction.objects.exists()


def test_occurred_at_is_the_rows_time(key_client, user, post):
    data = post(key_client, INTAKE, body(user, occurredAt="2026-11-01T08:30:00Z")).json()["data"]
    assert Transaction.objects.get(pk=data["transactionId"]).created_at.isoformat() == "2026-11-01T08:30:00+00:00"


def test_the_dry_run_decides_and_records_nothing(key_client, user, post):
    make_rule("threshold", action="block", thresholdAmount=500)
    r = post(key_client, DRY_RUN, {k: v for k, v in body(user, "600").items() if k != "externalId"})
    assert r.status_code == 200, r.content
    data = r.json()["data"]
    assert data["decision"] == "BLOCK" and data["hits"][0]["action"] == "BLOCK" and "tookMs" in data
    assert not Transaction.objects.exists() and not Alert.objects.exists()
    user.refresh_from_db()
    assert user.balance == Decimal("1000.00")
