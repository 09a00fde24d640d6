"""On PostgreSQL, with real threads: retries of one externalId record once; concurrent releases move money once."""

from decimal import Decimal

import pytest

from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.tests.transactions.helpers import make_rule
from kyc.models import PlatformUser, Transaction, TransactionEvent
from kyc.services.ledger import held_transaction_release, transaction_intake
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_concurrent_retries_of_one_external_id_record_one_row_and_one_alert(settings):
    settings.AML_ALERTS_BACKGROUND = False
    make_rule("threshold", thresholdAmount=50)
    user = PlatformUserFactory(balance=Decimal("0"))

    def call(_):
        return transaction_intake(external_id="retry-1", user_id=user.pk, type="TOP_UP", amount=Decimal("100"))

    outcomes = run_in_threads(8, call)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sum(1 for o in outcomes if not o.replayed) == 1
    assert len({o.transaction.pk for o in outcomes}) == 1
    assert Transaction.objects.filter(external_id="retry-1").count() == 1
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("100.00")
    assert Alert.objects.count() == 1


def test_concurrent_retries_across_users_end_on_the_unique_column():
    users = [PlatformUserFactory(balance=Decimal("0")) for _ in range(4)]

    def call(i):
        return transaction_intake(external_id="shared", user_id=users[i].pk, type="TOP_UP", amount=Decimal("5"))

    outcomes = run_in_threads(4, call)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert Transaction.objects.filter(external_id="shared").count() == 1
    assert sum(PlatformUser.objects.filter(pk__in=[u.pk for u in users]).values_list("balance", flat=True)) == 5


def test_concurrent_releases_move_the_money_once(settings):
    settings.AML_ALERTS_BACKGROUND = False
    make_rule("threshold", action="hold", thresholdAmount=500)
    user = PlatformUserFactory(balance=Decimal("1000"))
    tx = transaction_intake(external_id="held-1", user_id=user.pk, type="WITHDRAWAL", amount=Decimal("600")).transaction
    assert tx.status == "HELD"
    officers = [StaffFactory(role="compliance_officer") for _ in range(6)]

    def release(i):
        return held_transaction_release(transaction_id=tx.pk, actor=officers[i], note="checked")

    outcomes = run_in_threads(6, release)
    done = [o for o in outcomes if isinstance(o, Transaction)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(done) == 1 and len(refused) == 5
    assert all(getattr(o, "code", "") == "INVALID_TRANSITION" for o in refused), refused
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("400.00")
    # one decision, one history row: the refused releases left none
    assert list(TransactionEvent.objects.filter(transaction=tx).values_list("from_status", "to_status", "actor")) == [
        ("HELD", "COMPLETED", done[0].reviewed_by_id)
    ]


def test_alerts_are_written_by_the_background_worker_after_the_answer(settings):
    from compliance.aml.services.screening import wait_for_background_alerts

    settings.AML_ALERTS_BACKGROUND = True
    rule = make_rule("threshold", action="hold", thresholdAmount=50)
    user = PlatformUserFactory(balance=Decimal("0"))
    result = transaction_intake(external_id="bg-1", user_id=user.pk, type="TOP_UP", amount=Decimal("100"))
    assert result.transaction.status == "HELD"
    wait_for_background_alerts()
    alert = Alert.objects.get(rule=rule)
    assert list(alert.related_transactions.values_list("pk", flat=True)) == [result.transaction.pk]


def test_a_payment_to_a_customer_does_not_wait_for_that_customers_own_payment():
    """The wallet's lock excludes other writers of the row, not the key-share lock of a foreign key: a transfer
    naming a customer as counterparty commits while that customer's own payment still holds their wallet.
    Waiting there, the transfer held the audit chain's head, which the other payment needed next: a deadlock
    (bench/aml_decisions.py, 8 callers)."""
    import threading

    from django.db import transaction

    from kyc.services.ledger import lock_user

    payer, payee = PlatformUserFactory(balance=Decimal("500.00")), PlatformUserFactory(balance=Decimal("500.00"))
    payee_locked, transfer_done = threading.Event(), threading.Event()

    def payee_payment():
        with transaction.atomic():
            lock_user(payee)
            payee_locked.set()
            # held until the transfer has committed, or for long enough to say it waited
            return transfer_done.wait(10)

    def transfer():
        payee_locked.wait(10)
        result = transaction_intake(
            external_id=f"to-payee-{payee.pk}",
            user_id=payer.pk,
            type="TRANSFER_OUT",
            amount=Decimal("10.00"),
            counterparty_user_id=payee.pk,
        )
        transfer_done.set()
        return result.transaction.status

    outcomes = run_in_threads(2, lambda index: payee_payment() if index == 0 else transfer())

    assert outcomes == [True, "COMPLETED"], outcomes
