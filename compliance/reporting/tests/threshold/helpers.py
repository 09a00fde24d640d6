"""Fixtures of the threshold report tests: the reporting rule, a customer, cash through the ledger, staff."""

import datetime as dt
from decimal import Decimal

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.rules import AMLRule
from compliance.sars.tests.sar.helpers import client_for
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory

# 10:00 in Mbabane (UTC+2) on a fixed day, well inside the Eswatini day 2026-06-10
MORNING = dt.datetime(2026, 6, 10, 8, 0, tzinfo=dt.UTC)


@pytest.fixture
def rule(db):
    return AMLRule.objects.create(
        rule_id="AML-RPT-001",
        name="Large cash transaction report due",
        rule_type="regulatory_reporting",
        conditions={"ruleType": "regulatory_reporting", "reportingThreshold": 25000},
        severity="HIGH",
        is_active=True,
    )


@pytest.fixture
def customer(db):
    return PlatformUserFactory(first_name="Sipho", last_name="Dlamini", id_number="8501015800081")


def cash(user, amount, *, at=MORNING, type="TOP_UP", **fields):
    """A COMPLETED cash ledger row through the ledger service (its hooks run, as in production)."""
    return transaction_record(
        user=user, type=type, amount=Decimal(str(amount)), channel="CASH", created_at=at, **fields
    )


@pytest.fixture
def staff(db):
    return {
        "officer": StaffFactory(role=StaffRole.COMPLIANCE_OFFICER),
        "mlro": StaffFactory(role=StaffRole.MLRO),
        "mlro2": StaffFactory(role=StaffRole.MLRO),
        "admin": StaffFactory(role=StaffRole.ADMIN),
        "support": StaffFactory(role=StaffRole.SUPPORT),
        "finance": StaffFactory(role=StaffRole.FINANCE),
    }


@pytest.fixture
def api(staff):
    return {name: client_for(member) for name, member in staff.items()}
