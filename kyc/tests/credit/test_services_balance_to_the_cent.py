"""A wallet's balance stays exact to the cent on every database, so a debit of the whole balance is decided, not a 500.

SQLite keeps a decimal column as a binary float; adding in SQL (``balance + delta``) left E1.00 - E0.90 as
0.09999999999999998, read as E0.10, and the debit of that E0.10 then failed the database's non-negative check.
"""

from decimal import Decimal

import pytest
from django.db import connection

from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record
from kyc.services.ledger import transaction_intake
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def _stored(user) -> str:
    """The balance as the database holds it, not as Django reads it (rounded to the cent)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT balance FROM {PlatformUser._meta.db_table} WHERE id = %s", [user.pk.hex])
        row = cursor.fetchone()
    if row is None:  # PostgreSQL keys the row by its UUID, not its hex
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT balance FROM {PlatformUser._meta.db_table} WHERE id = %s", [user.pk])
            row = cursor.fetchone()
    return str(row[0])


def test_the_whole_balance_left_by_cents_that_floats_cannot_hold_can_be_spent():
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("1.00"))
    transaction_record(user=user, type="CARD_PAYMENT", amount=Decimal("0.90"))
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("0.10")

    tx = transaction_record(user=user, type="CARD_PAYMENT", amount=Decimal("0.10"))

    assert tx.status == "COMPLETED" and tx.balance_after == Decimal("0.00")
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("0.00")


def test_the_intake_decides_a_debit_of_the_whole_balance_after_many_small_payments():
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("100.00"))
    for n, amount in enumerate(["0.10", "0.20", "0.70", "33.33", "0.01", "12.34", "0.03"] * 2):
        transaction_intake(user_id=user.pk, external_id=f"small-{n}", type="CARD_PAYMENT", amount=Decimal(amount))
    left = PlatformUser.objects.get(pk=user.pk).balance
    assert left == Decimal("100.00") - 2 * Decimal("46.71")

    result = transaction_intake(user_id=user.pk, external_id="the-rest", type="WITHDRAWAL", amount=left)

    assert result.transaction.status == "COMPLETED" and result.transaction.decision_balance == Decimal("0.00")
    assert Transaction.objects.filter(user=user, status="COMPLETED").count() == 16


def test_the_stored_balance_is_the_cents_themselves():
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("1.00"))
    transaction_record(user=user, type="CARD_PAYMENT", amount=Decimal("0.90"))
    assert Decimal(_stored(user)) == Decimal("0.1")
