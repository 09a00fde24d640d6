from decimal import Decimal

import pytest

from backoffice.errors import DomainError, ValidationFailed
from kyc import hooks
from kyc.errors import InsufficientFunds
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def test_a_completed_credit_moves_the_balance_and_records_it_after():
    user = PlatformUserFactory()
    tx = transaction_record(user=user, type="TOP_UP", amount=Decimal("40.50"), channel="MOBILE_MONEY")
    assert tx.balance_after == Decimal("40.50")
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("40.50")


def test_a_debit_larger_than_the_balance_is_refused_and_nothing_is_written():
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("10.00"))
    with pytest.raises(InsufficientFunds):
        transaction_record(user=user, type="WITHDRAWAL", amount=Decimal("10.01"))
    assert Transaction.objects.filter(user=user).count() == 1
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("10.00")


def test_a_pending_row_does_not_move_the_balance():
    user = PlatformUserFactory()
    tx = transaction_record(user=user, type="TOP_UP", amount=Decimal("10.00"), status="PENDING")
    assert tx.balance_after is None
    assert PlatformUser.objects.get(pk=user.pk).balance == 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"type": "GIFT", "amount": Decimal("1")},
        {"type": "TOP_UP", "amount": Decimal("0")},
        {"type": "TOP_UP", "amount": Decimal("1.005")},
    ],
)
def test_unknown_types_and_bad_amounts_are_validation_errors(kwargs):
    with pytest.raises(ValidationFailed):
        transaction_record(user=PlatformUserFactory(), **kwargs)
    assert not Transaction.objects.exists()


def test_counterparty_channel_and_place_are_kept_for_the_aml_rules():
    payer, payee = PlatformUserFactory(), PlatformUserFactory()
    transaction_record(user=payer, type="TOP_UP", amount=Decimal("100.00"))
    tx = transaction_record(
        user=payer,
        type="TRANSFER_OUT",
        amount=Decimal("60.00"),
        counterparty_user=payee,
        channel="WALLET",
        country="ZA",
        region="Gauteng",
    )
    tx.refresh_from_db()
    assert (tx.counterparty_user_id, tx.channel, tx.country, tx.region) == (payee.pk, "WALLET", "ZA", "Gauteng")


def test_a_registered_hook_sees_every_row_and_can_refuse_it(monkeypatch):
    seen = []
    monkeypatch.setattr(hooks.transaction_recorded, "_functions", [])

    @hooks.transaction_recorded.register
    def watch(*, transaction, **_):
        seen.append(transaction.reference)
        if transaction.amount > 1000:
            raise DomainError("Blocked by an AML rule", code="AML_BLOCKED", status=409)

    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("5.00"), reference="OK-1")
    with pytest.raises(DomainError):
        transaction_record(user=user, type="TOP_UP", amount=Decimal("5000.00"), reference="BIG-1")
    assert seen == ["OK-1", "BIG-1"]
    assert list(Transaction.objects.values_list("reference", flat=True)) == ["OK-1"]
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("5.00")


def test_the_ledger_reads_the_rows_one_check_constraint_itself():
    # kyc.services.ledger._clean_row settles "amount > 0" in Python instead of Django's query per payment:
    # a new constraint on the row must be added there too
    assert [c.name for c in Transaction._meta.constraints] == ["kyc_tx_amount_positive"]
    with pytest.raises(ValidationFailed) as refused:
        transaction_record(user=PlatformUserFactory(), type="TOP_UP", amount=Decimal("-5"))
    assert "amount" in refused.value.details
    assert not Transaction.objects.exists()
