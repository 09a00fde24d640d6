"""A wallet's hourly activity adds its amounts to the cent (the rules' bounds read it before they look closer).

SQLite adds its REAL amounts as binary floats: seven payments making exactly E25,000 left an hour's total of
24999.999999999996, and a bound that compares it with a E25,000 threshold would rule the wallet out.
"""

from decimal import Decimal

import pytest
from django.db import connection

from kyc.models import UserActivityHour
from kyc.services import transaction_record
from kyc.services.activity import activity_rebuild
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db
EXACTLY_25000 = ["2049.64", "4750.91", "1201.40", "988.04", "3698.14", "3690.06", "8621.81"]


def stored_totals_reach(threshold: int) -> list:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT total >= %s FROM {UserActivityHour._meta.db_table}", [threshold])
        return [bool(row[0]) for row in cursor.fetchall()]


def test_an_hours_total_is_its_cents_as_payments_come_and_when_rebuilt():
    user = PlatformUserFactory()
    for amount in EXACTLY_25000:
        transaction_record(user=user, type="TOP_UP", amount=Decimal(amount), channel="CASH")
    assert UserActivityHour.objects.get(user=user).total == Decimal("25000.00")
    assert stored_totals_reach(25000) == [True]

    activity_rebuild()
    assert stored_totals_reach(25000) == [True]
