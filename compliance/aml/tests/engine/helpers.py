"""Helpers and fixtures of the tests in compliance/aml/tests/engine: import helpers from here, never from conftest."""

import datetime as dt
from decimal import Decimal

import pytest

from compliance.aml.engine.base import Scope
from compliance.aml.engine.runner import evaluate
from compliance.aml.models.rules import AMLRule
from compliance.aml.tests.factories import AMLRuleFactory
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

# A fixed clock keeps windows and day buckets deterministic: noon UTC on a Wednesday.
NOON = dt.datetime(2026, 6, 10, 12, 0, tzinfo=dt.UTC)


def make_rule(rule_type: str, **params) -> AMLRule:
    return AMLRuleFactory(
        rule_id=f"T-{rule_type}-{AMLRule.objects.count()}",
        rule_type=rule_type,
        conditions={"ruleType": rule_type, **params},
        severity="HIGH",
    )


def tx(user, amount, *, minutes=0, type="TOP_UP", **fields):
    """A completed ledger row ``minutes`` after NOON (negative: before)."""
    return TransactionFactory(
        user=user, amount=Decimal(str(amount)), type=type, created_at=NOON + dt.timedelta(minutes=minutes), **fields
    )


def hits_of(rule, *, since=None, until=None, user=None):
    scope = Scope(
        since=since or NOON - dt.timedelta(days=1),
        until=until or NOON + dt.timedelta(days=1),
        user_id=user.pk if user else None,
    )
    return evaluate(rule, scope)


@pytest.fixture
def user(db):
    return PlatformUserFactory()


@pytest.fixture
def other(db):
    return PlatformUserFactory()
