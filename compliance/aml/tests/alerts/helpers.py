"""Helpers and fixtures of the tests in compliance/aml/tests/alerts: import helpers from here, never from conftest."""

import pytest

from backoffice.choices import StaffRole
from compliance.aml.tests.factories import AlertFactory, AMLRuleFactory
from kyc.tests.factories import PlatformUserFactory, TransactionFactory


@pytest.fixture
def officer(staff_client):
    return staff_client(StaffRole.COMPLIANCE_OFFICER)


@pytest.fixture
def rule(db):
    return AMLRuleFactory(rule_id="T-THR", name="Big one", version=3)


@pytest.fixture
def make_alert(rule):
    def make(*, user=None, severity="MEDIUM", status="OPEN", alert_type="RULE", transactions=1, **fields):
        user = user or PlatformUserFactory()
        alert = AlertFactory(
            alert_type=alert_type,
            rule=rule if alert_type == "RULE" else None,
            user=user,
            severity=severity,
            status=status,
            details={"why": "test"},
            **fields,
        )
        alert.related_transactions.set(TransactionFactory.create_batch(transactions, user=user))
        return alert

    return make
