"""A wallet's counterparties and its money flows (one and two hops), from real ledger rows: the customer view's
"Top counterparties" and "Money flows" panels read these."""

from decimal import Decimal

import pytest

from kyc.selectors.flows import user_counterparties, user_money_flows
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = pytest.mark.django_db


def test_counterparties_and_two_hops_with_amounts_and_counts():
    centre = PlatformUserFactory(first_name="Nomvula", last_name="Dube")
    friend = PlatformUserFactory(first_name="Sipho", last_name="Nkosi")
    onward = PlatformUserFactory(first_name="Lindiwe", last_name="Mamba")
    for amount in ("100.00", "50.00"):
        TransactionFactory(user=centre, type="TRANSFER_OUT", amount=Decimal(amount), counterparty_user=friend)
    TransactionFactory(user=centre, type="TRANSFER_IN", amount=Decimal("30.00"), counterparty_user=friend)
    TransactionFactory(user=friend, type="TRANSFER_OUT", amount=Decimal("120.00"), counterparty_user=onward)

    [party] = user_counterparties(user=centre)
    assert (party.name, party.kind, party.pk) == ("Sipho Nkosi", "user", friend.pk)
    assert (party.sent, party.received, party.count, party.total) == (
        Decimal("150.00"),
        Decimal("30.00"),
        3,
        Decimal("180.00"),
    )
    flows = user_money_flows(user=centre)
    assert [p.name for p in flows.first_hop] == ["Sipho Nkosi"]
    [second] = flows.second_hop[f"user:{friend.pk}"]
    assert (second.name, second.sent, second.count) == ("Lindiwe Mamba", Decimal("120.00"), 1)
