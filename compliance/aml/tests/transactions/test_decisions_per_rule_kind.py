"""Every rule type decides at record time: an alert-only hit allows, a hold rule holds, a block rule blocks.

Each scenario crafts a ledger (through the ledger service, screening paused, as a bulk loader would) whose
next transaction completes the rule's pattern; that transaction then goes through the one ledger service.
Without the ledger's history (or below the thresholds) the same transaction is allowed with no hit.
"""

import datetime as dt
from decimal import Decimal

import pytest

from compliance.aml.engine.hooks import screening_paused
from compliance.aml.models.alerts import Alert
from compliance.aml.tests.transactions.conftest import make_rule
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db

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
        lambda u, ctx: [{"type": "TOP_UP", "amount": Decimal("2000"), "created_at": at(-180)}],
        lambda u, ctx: {"type": "TOP_UP", "amount": Decimal("1500")},
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


@pytest.fixture
def ctx(db):
    return {
        "senders": [PlatformUserFactory() for _ in range(3)],
        "vendor": VendorFactory(),
        "casino": VendorFactory(business_sector="Gambling"),
    }


def customer():
    user = PlatformUserFactory(balance=Decimal("100000"), occupation="Student", is_potential_pep=True)
    PlatformUser.objects.filter(pk=user.pk).update(created_at=at(days=-400))
    user.refresh_from_db()
    return user


EXPECTED = {
    None: ("ALLOW", "COMPLETED", "ALERT"),
    "hold": ("REVIEW", "HELD", "HOLD"),
    "block": ("BLOCK", "BLOCKED", "BLOCK"),
}


@pytest.mark.parametrize("action", [None, "hold", "block"])
@pytest.mark.parametrize("rule_type", sorted(SCENARIOS))
def test_each_rule_type_decides_at_record_time(rule_type, action, ctx, django_capture_on_commit_callbacks):
    params, past, final = SCENARIOS[rule_type]
    rule = make_rule(rule_type, action=action, **params)
    user = customer()
    history(user, past(user, ctx))
    balance = PlatformUser.objects.get(pk=user.pk).balance
    with django_capture_on_commit_callbacks(execute=True):
        tx = transaction_record(user=user, created_at=NOON, **final(user, ctx))
    decision, status, hit_action = EXPECTED[action]
    assert (tx.decision, tx.status) == (decision, status), tx.hits
    assert tx.hits == [{"rule_id": rule.rule_id, "rule_version": 1, "severity": "HIGH", "action": hit_action}]
    alert = Alert.objects.get(rule=rule)
    assert tx in alert.related_transactions.all()
    after = PlatformUser.objects.get(pk=user.pk).balance
    if status == "COMPLETED":
        assert after == balance + tx.signed_amount
    else:
        assert after == balance and Transaction.objects.get(pk=tx.pk).balance_after is None


# the types whose hit needs the ledger's history (a dormant account counts from its opening: no history fires)
WINDOW_TYPES = [
    "digital_wallet",
    "mobile_money",
    "network_analysis",
    "pattern_detection",
    "regulatory_reporting",
    "structuring",
    "velocity",
]


@pytest.mark.parametrize("rule_type", WINDOW_TYPES)
def test_without_the_history_the_same_transaction_is_allowed(rule_type, ctx):
    params, _past, final = SCENARIOS[rule_type]
    make_rule(rule_type, action="block", **params)
    user = customer()
    tx = transaction_record(user=user, created_at=NOON, **final(user, ctx))
    assert (tx.decision, tx.status, tx.hits) == ("ALLOW", "COMPLETED", [])
    assert not Alert.objects.exists()
