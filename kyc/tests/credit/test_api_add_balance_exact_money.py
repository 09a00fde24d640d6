"""Add-balance reads amounts exactly: what rounds through a float is refused, and nothing is credited."""

import pytest

from kyc.models import Transaction
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db


def post_raw(client, user, body: str):
    return client.generic("POST", user_url(user, "add-balance"), body.encode(), content_type="application/json")


@pytest.mark.parametrize(
    "amount",
    ["999999.9999999999999", "0.0099999999999999999", "1e2", '"1_000"', '"１０"', '"٣"', "true", "NaN"],
)
def test_amounts_a_float_would_round_or_that_are_not_plain_decimals_are_400(admin_client_api, amount):
    user = PlatformUserFactory()
    response = post_raw(admin_client_api, user, '{"amount": ' + amount + ', "reason": "Promotion"}')
    assert response.status_code == 400
    assert not Transaction.objects.filter(user=user).exists()


def test_a_duplicated_amount_is_400_not_the_last_one_wins(admin_client_api):
    user = PlatformUserFactory()
    response = post_raw(admin_client_api, user, '{"amount": 1, "reason": "Promotion", "amount": 1000000}')
    assert response.status_code == 400 and "amount" in response.json()["error"]["details"]
    assert not Transaction.objects.filter(user=user).exists()


def test_an_exact_amount_is_credited_to_the_cent(admin_client_api):
    user = PlatformUserFactory()
    response = post_raw(admin_client_api, user, '{"amount": 999999.99, "reason": "Promotion"}')
    assert response.status_code == 200 and response.json()["data"]["addedAmount"] == 999999.99
    assert str(Transaction.objects.get(user=user).amount) == "999999.99"
