"""Every rule type decides at record time: an alert-only hit allows, a hold rule holds, a block rule blocks.

Each scenario crafts a ledger (through the ledger service, screening paused, as a bulk loader would) whose
next transaction completes the rule's pattern; that transaction then goes through the one ledger service.
Without the ledger's history (or below the thresholds) the same transaction is allowed with no hit.
"""

import pytest

from compliance.aml.models.alerts import Alert
from compliance.aml.tests.transactions.helpers import NOON, SCENARIOS, customer, history, make_rule
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ctx(db):
    return {
        "senders": [PlatformUserFactory() for _ in range(3)],
        "vendor": VendorFactory(),
        "casino": VendorFactory(business_sector="Gambling"),
    }


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
