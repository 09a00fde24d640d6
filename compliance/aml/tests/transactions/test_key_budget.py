"""A service key's transaction budget is spent only by requests that carry the key itself.

A key's 12-character prefix is public (the admin site lists it): keys invented around a real prefix are
failed keys, counted against the address that sent them, never against the key they imitate.
"""

import pytest
from rest_framework.test import APIClient

from backoffice.services.service_keys import service_key_create
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db
DRY_RUN = "/api/v1/admin/aml/transactions/dry-run"
# Budgets per hour, not per minute: a count's window ends at a moment of its own (django-ratelimit staggers them by
# key), and a minute's end fell between a run's requests once on a busy machine, starting the count again.


def dry_run(key: str, user, address: str):
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_X_API_KEY=key)
    return client.post(DRY_RUN, {"userId": str(user.pk), "type": "TOP_UP", "amount": 10}, format="json")


def test_invented_keys_with_a_real_prefix_do_not_spend_the_real_keys_budget(settings):
    settings.RATE_LIMIT_TRANSACTIONS = "5/h"
    real = service_key_create(name="wallet")
    user = PlatformUserFactory()
    invented = [f"vk_{real.service_key.prefix}_invented-secret-{i}" for i in range(12)]
    stranger = [dry_run(key, user, "203.0.113.9").status_code for key in invented]
    # the stranger's failed keys are counted against the stranger's address: 401 until its budget is spent
    assert stranger == [401] * 5 + [429] * 7
    answers = [dry_run(real.key, user, "198.51.100.7") for _ in range(5)]
    assert [r.status_code for r in answers] == [200] * 5
    assert [r["X-RateLimit-Remaining"] for r in answers] == ["4", "3", "2", "1", "0"]
    assert dry_run(real.key, user, "198.51.100.7").status_code == 429  # its own budget still holds


def test_a_real_key_is_counted_as_itself_from_any_address(settings):
    settings.RATE_LIMIT_TRANSACTIONS = "2/h"
    real = service_key_create(name="wallet")
    user = PlatformUserFactory()
    codes = [dry_run(real.key, user, f"198.51.100.{i}").status_code for i in range(3)]
    assert codes == [200, 200, 429]
