"""On PostgreSQL, with real threads: a pair found by two screenings at once is one match with one alert."""

from decimal import Decimal

import pytest

from backoffice.tests.concurrency import run_in_threads
from compliance.aml.models.alerts import Alert
from compliance.sanctions.models import SanctionsMatch
from compliance.sanctions.services.screening import screen_user
from compliance.sanctions.tests.screening.helpers import make_entry
from kyc.services.ledger import transaction_intake
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_two_concurrent_screenings_of_one_customer_open_one_match_and_one_alert():
    make_entry("Ahmad Khalil Haddad")
    user = PlatformUserFactory(first_name="Ahmad", last_name="Haddad")
    outcomes = run_in_threads(4, lambda _: screen_user(user_id=user.pk))
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert SanctionsMatch.objects.count() == 1
    assert Alert.objects.filter(alert_type="SANCTIONS_MATCH").count() == 1
    assert sum(o.matches_created for o in outcomes) == 1


def test_two_customers_paying_one_listed_counterparty_at_once_open_one_match(settings):
    settings.AML_ALERTS_BACKGROUND = False
    make_entry("Global Shipping Trust", entry_type="ENTITY")
    users = [PlatformUserFactory(balance=Decimal("100")) for _ in range(4)]

    def pay(i):
        return transaction_intake(
            external_id=f"cp-{i}",
            user_id=users[i].pk,
            type="TRANSFER_OUT",
            amount=Decimal("10"),
            counterparty_name="Global Shipping Trust",
        )

    outcomes = run_in_threads(4, pay)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert {o.transaction.status for o in outcomes} == {"HELD"}
    match = SanctionsMatch.objects.get()
    assert {o.transaction.hits[-1]["match_id"] for o in outcomes} == {str(match.pk)}
    assert Alert.objects.filter(alert_type="SANCTIONS_MATCH").count() == 1
