"""AML's fixtures for ``backoffice.tests.admin_fixtures``: an alert, a rule and a snooze to change, a rule and a snooze
to add, a held transaction to decide."""

import datetime as dt
import hashlib
import itertools
import uuid
from decimal import Decimal

from django.utils import timezone

from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.models.held import HeldTransaction
from compliance.aml.services.governance import rule_snooze
from compliance.aml.services.rules import rule_create
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory

_n = itertools.count(1)
CONDITIONS = '{"ruleType": "threshold", "thresholdAmount": 10}'


def _alert():
    return Alert.objects.create(
        alert_type="MANUAL",
        user=PlatformUserFactory(),
        severity="MEDIUM",
        details={"why": "test"},
        dedup_key=hashlib.sha256(uuid.uuid4().bytes).hexdigest(),
    )


def _rule():
    return rule_create(
        actor=None,
        rule_id=f"T-FORM-{next(_n)}",
        name="A rule",
        conditions={"ruleType": "threshold", "thresholdAmount": 10},
    )


def _held():
    """A transaction a hold rule kept for review (the held queue's change page is its decision page)."""
    rule_create(
        actor=None,
        rule_id=f"T-HOLD-{next(_n)}",
        name="Hold everything",
        conditions={"ruleType": "threshold", "thresholdAmount": 1},
        actions={"createAlert": True, "hold": True},
        is_active=True,  # an inactive rule holds nothing: the row would complete and the page offer no decision
    )
    tx = transaction_record(user=PlatformUserFactory(), type="TOP_UP", amount=Decimal("20"))
    return HeldTransaction.objects.get(pk=tx.pk)


def _snooze():
    return rule_snooze(
        rule=_rule(),
        user=PlatformUserFactory(),
        actor=StaffFactory(role="mlro"),
        expires_at=timezone.now() + dt.timedelta(days=7),
        reason="Known school-fee pattern",
    )


INSTANCES = {
    "compliance.Alert": _alert,
    "compliance.AMLRule": _rule,
    "compliance.HeldTransaction": _held,
    "compliance.RuleSnooze": _snooze,
}

ADD_QUERY = {"compliance.AMLRule": "?rule_type=threshold"}

# every save of a rule is a new version, kept with the reason the officer gives (required when editing)
CHANGE_DATA = {"compliance.AMLRule": lambda: {"reason": "Saved as it is, to check the page"}}

# release and reject are forms of their own (compliance/aml/tests/transactions, the held-queue browser test)
DECISION_PAGES = {"compliance.HeldTransaction"}


def _snooze_add() -> dict:
    """A rule snoozed for a customer named by phone number, a week from now (typed into the date picker's inputs)."""
    until = timezone.localtime() + dt.timedelta(days=7)
    return {
        "rule": str(_rule().pk),
        "customer": PlatformUserFactory().phone_number,
        "expires_at_0": until.strftime("%Y-%m-%d"),
        "expires_at_1": "09:30:00",
        "reason": "Known school-fee pattern",
    }


ADD_DATA = {
    "compliance.RuleSnooze": _snooze_add,
    "compliance.AMLRule": lambda: {
        "rule_id": f"T-ADD-{next(_n)}",
        "name": "Added rule",
        "description": "",
        "category": "",
        "severity": "MEDIUM",
        "priority": "100",
        "param_thresholdAmount": "10",
        "on_hit": "HOLD",
        "reason": "A new threshold for the test",
    },
}
