import uuid
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from backoffice.services.service_keys import service_key_create
from compliance.aml.models.rules import AMLRule
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
