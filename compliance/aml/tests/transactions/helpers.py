"""Helpers and fixtures of the intake and held-queue tests: import them from here, never from a conftest."""

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from backoffice.services.service_keys import service_key_create
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.screening import screening_paused
from kyc.models import PlatformUser
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory

INTAKE = "/api/v1/admin/aml/transactions"
DRY_RUN = "/api/v1/admin/aml/transactions/dry-run"
HELD = "/api/v1/admin/aml/held-transactions"


def make_rule(rule_type: str, *, action: str | None = None, severity: str = "HIGH", **params) -> AMLRule:
    """An active rule; ``action`` "hold" or "block" makes its hits decide, else it only alerts."""
    actions = {"createAlert": True}
    if action:
        actions[action] = True
    return AMLRule.objects.create(
        rule_id=f"T-{rule_type}-{uuid.uuid4().hex[:6]}",
        name=f"Test {rule_type}",
        rule_type=rule_type,
        conditions={"ruleType": rule_type, **params},
        actions=actions,
        severity=severity,
        is_active=True,
    )


def body(user, amount="100.00", **fields):
    data = {"externalId": f"ext-{uuid.uuid4().hex}", "userId": str(user.pk), "type": "TOP_UP", "amount": amount}
    data.update(fields)
    return data


@pytest.fixture
def user(db):
    return PlatformUserFactory(balance=Decimal("1000.00"))


@pytest.fixture
def service_key(db):
    return service_key_create(name=f"wallet-{uuid.uuid4().hex[:6]}")


@pytest.fixture
def key_client(service_key):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=service_key.key)
    return client


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    """post(client, path, data): the request, then what runs after its commit (alerts), as in production."""

    def _post(client, path, data):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(path, data, format="json")

    return _post


# ---------------------------------------------------------------- one scenario per rule type

NOON = dt.datetime(2026, 6, 10, 12, 0, tzinfo=dt.UTC)  # 14:00 in Eswatini


def at(minutes=0, **delta):
    return NOON + dt.timedelta(minutes=minutes, **delta)


def history(user, rows):
    with screening_paused():
        for fields in rows:
            transaction_record(user=user, **fields)


SCENARIOS = {
    "threshold": (
        {"thresholdAmount": 1000},
        lambda u, ctx: [],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1500")},
    ),
    "structuring": (
        {"thresholdAmount": 3000, "thresholdCount": 3, "timeWindowHours": 24},
        lambda u, ctx: [{"type": "TOP_UP", "amount": Decimal("1000"), "created_at": at(-m)} for m in (120, 60)],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1000")},
    ),
    "velocity": (
        {"percentageChange": 100, "timeWindowHours": 24},
        lambda u, ctx: [{"type": "TOP_UP", "amount": Decimal("100"), "created_at": at(hours=-24)}],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1000")},
    ),
    "behavioral": (
        {"thresholdAmount": 1000, "occupations": ["student"]},
        lambda u, ctx: [],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1500")},
    ),
    "pep_related": (
        {"thresholdAmount": 1000},
        lambda u, ctx: [],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1500")},
    ),
    "network_analysis": (
        {"minSenders": 3, "minTotalAmount": 3000, "timeWindowHours": 24},
        lambda u, ctx: [
            {"type": "TRANSFER_IN", "amount": Decimal("1000"), "counterparty_user": s, "created_at": at(-m)}
            for s, m in zip(ctx["senders"][:2], (90, 30), strict=True)
        ],
        lambda u, ctx: {"type": "TRANSFER_IN", "amount": Decimal("1000"), "counterparty_user": ctx["senders"][2]},
    ),
    "high_risk_transaction": (
        {"thresholdAmount": 1000, "transactionTypes": ["WITHDRAWAL"]},
        lambda u, ctx: [],
        lambda u, ctx: {"type": "WITHDRAWAL", "amount": Decimal("1500")},
    ),
    "pattern_detection": (
        {"minAmount": 100, "timeWindowMinutes": 60, "similarityPercentage": 90},
        lambda u, ctx: [{"type": "TRANSFER_OUT", "amount": Decimal("500"), "created_at": at(-m)} for m in (20, 10)],
        lambda u, ctx: {"type": "TRANSFER_OUT", "amount": Decimal("505")},
    ),
    "account_lifecycle": (
        {"inactiveDays": 30, "thresholdAmount": 1000},
        lambda u, ctx: [{"type": "TOP_UP", "amount": Decimal("10"), "created_at": at(days=-60)}],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1500")},
    ),
    "digital_wallet": (
        {"minAmount": 1000, "timeWindowMinutes": 60, "topupPercentageTransferred": 90},
        lambda u, ctx: [{"type": "TOP_UP", "amount": Decimal("1000"), "created_at": at(-10)}],
        lambda u, ctx: {"type": "TRANSFER_OUT", "amount": Decimal("950")},
    ),
    "regional_risk": (
        {"regions": ["Lavumisa"]},
        lambda u, ctx: [],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("10"), "region": "Lavumisa"},
    ),
    "regulatory_reporting": (
        {"reportingThreshold": 3000},
        lambda u, ctx: [{"type": "TOP_UP", "amount": Decimal("2000"), "channel": "CASH", "created_at": at(-180)}],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1500"), "channel": "CASH"},
    ),
    "mobile_money": (
        {"minCount": 3, "minTotalAmount": 3000, "timeWindowHours": 24, "transactionTypes": ["TOP_UP"]},
        lambda u, ctx: [
            {"type": "TOP_UP", "amount": Decimal("1000"), "channel": "MOBILE_MONEY", "created_at": at(-m)}
            for m in (60, 30)
        ],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1000"), "channel": "MOBILE_MONEY"},
    ),
    "vendor_specific": (
        {"thresholdAmount": 1000, "timeWindowHours": 24},
        lambda u, ctx: [],
        lambda u, ctx: {"type": "VENDOR_PAYMENT", "amount": Decimal("1500"), "counterparty_vendor": ctx["vendor"]},
    ),
    "cft_related": (
        {"countries": ["KP"], "thresholdAmount": 0, "timeWindowHours": 24},
        lambda u, ctx: [],
        lambda u, ctx: {"type": "TRANSFER_OUT", "amount": Decimal("50"), "country": "KP"},
    ),
    "business_sector": (
        {"sectors": ["gambling"], "thresholdAmount": 1000, "timeWindowHours": 24},
        lambda u, ctx: [],
        lambda u, ctx: {"type": "CARD_PAYMENT", "amount": Decimal("1500"), "counterparty_vendor": ctx["casino"]},
    ),
}


def customer():
    user = PlatformUserFactory(balance=Decimal("100000"), occupation="Student", is_potential_pep=True)
    PlatformUser.objects.filter(pk=user.pk).update(created_at=at(days=-400))
    user.refresh_from_db()
    return user
