"""AML's fixtures for ``backoffice.tests.test_admin_forms_submitted``: an alert and a rule to change, a rule to add."""

import hashlib
import itertools
import uuid

from compliance.aml.models.alerts import Alert
from compliance.aml.services.rules import rule_create
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


INSTANCES = {"compliance.Alert": _alert, "compliance.AMLRule": _rule}

ADD_DATA = {
    "compliance.AMLRule": lambda: {
        "rule_id": f"T-ADD-{next(_n)}",
        "name": "Added rule",
        "severity": "MEDIUM",
        "priority": "100",
        "conditions": CONDITIONS,
        "actions": "{}",
    }
}
