import hashlib
import uuid

import pytest

from backoffice.choices import StaffRole
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from kyc.tests.factories import PlatformUserFactory, TransactionFactory


@pytest.fixture
def officer(staff_client):
    return staff_client(StaffRole.COMPLIANCE_OFFICER)


@pytest.fixture
def rule(db):
    return AMLRule.objects.create(
        rule_id="T-THR",
        name="Big one",
        rule_type="threshold",
        conditions={"ruleType": "threshold", "thresholdAmount": 10},
        is_active=True,
        version=3,
    )


@pytest.fixture
def make_alert(rule):
    def make(*, user=None, severity="MEDIUM", status="OPEN", alert_type="RULE", transactions=1, **fields):
        user = user or PlatformUserFactory()
        alert = Alert.objects.create(
            alert_type=alert_type,
            rule=rule if alert_type == "RULE" else None,
            rule_version=rule.version if alert_type == "RULE" else None,
            user=user,
            severity=severity,
            status=status,
            details={"why": "test"},
            dedup_key=hashlib.sha256(uuid.uuid4().bytes).hexdigest(),
            **fields,
        )
        alert.related_transactions.set(TransactionFactory.create_batch(transactions, user=user))
        return alert

    return make
