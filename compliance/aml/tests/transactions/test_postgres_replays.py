"""On PostgreSQL, with real threads: two calls with one externalId sent at the same moment get one answer,
whatever it is (allow, hold, block or a refusal), and a refused payment answers its refusal when it comes again.

The second call queues on the wallet's row lock while the first one commits; what it then reads about the
externalId must be what the first call left, not what its own statement saw before it waited.
"""

from decimal import Decimal

import pytest

from backoffice.tests.concurrency import run_in_threads
from compliance.aml.tests.transactions.helpers import make_rule
from kyc.errors import AccountArchivedConflict, InsufficientFunds
from kyc.models import PlatformUser, Transaction
from kyc.services.ledger import transaction_intake
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]
ROUNDS = 12


def pair(user, external_id: str, amount: str, type: str = "WITHDRAWAL") -> list:
    def call(_):
        return transaction_intake(external_id=external_id, user_id=user.pk, type=type, amount=Decimal(amount))

    return run_in_threads(2, call)


def answer(outcome) -> tuple:
    """What the platform sees of one outcome: the row's status and id, or the refusal's code."""
    if isinstance(outcome, Exception):
        return ("refused", getattr(outcome, "code", repr(outcome)))
    return (outcome.transaction.status, outcome.transaction.pk)


@pytest.mark.parametrize("action, status", [(None, "COMPLETED"), ("hold", "HELD"), ("block", "BLOCKED")])
def test_a_debit_of_almost_the_balance_sent_twice_at_once_answers_the_first_answer_twice(settings, action, status):
    settings.AML_ALERTS_BACKGROUND = False
    if action:
        make_rule("threshold", action=action, thresholdAmount=1)
    for round_ in range(ROUNDS):
        user = PlatformUserFactory(balance=Decimal("100"))
        outcomes = pair(user, f"same-moment-{action}-{round_}", "99.00")
        assert answer(outcomes[0]) == answer(outcomes[1]), outcomes
        assert answer(outcomes[0])[0] == status, outcomes
        assert sorted(o.replayed for o in outcomes) == [False, True]
        assert Transaction.objects.filter(external_id=f"same-moment-{action}-{round_}").count() == 1
        expected = Decimal("1.00") if status == "COMPLETED" else Decimal("100.00")
        assert PlatformUser.objects.get(pk=user.pk).balance == expected


def test_a_refused_debit_sent_twice_at_once_is_refused_twice_and_records_no_row():
    for round_ in range(ROUNDS):
        user = PlatformUserFactory(balance=Decimal("10"))
        outcomes = pair(user, f"too-much-{round_}", "50.00")
        assert [answer(o) for o in outcomes] == [("refused", "INSUFFICIENT_FUNDS")] * 2, outcomes
    assert not Transaction.objects.filter(external_id__startswith="too-much-").exists()


def test_a_refused_debit_answers_its_refusal_again_after_the_balance_grew():
    user = PlatformUserFactory(balance=Decimal("10"))
    with pytest.raises(InsufficientFunds):
        transaction_intake(external_id="refused-1", user_id=user.pk, type="WITHDRAWAL", amount=Decimal("50"))
    transaction_intake(external_id="top-up-1", user_id=user.pk, type="TOP_UP", amount=Decimal("100"))
    # the platform declined the payment on the first answer: a retry must not take the money now
    with pytest.raises(InsufficientFunds):
        transaction_intake(external_id="refused-1", user_id=user.pk, type="WITHDRAWAL", amount=Decimal("50"))
    assert not Transaction.objects.filter(external_id="refused-1").exists()
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("110.00")


def test_a_payment_refused_for_an_archived_account_answers_the_same_after_a_restore():
    user = PlatformUserFactory(balance=Decimal("100"), is_archived=True)
    with pytest.raises(AccountArchivedConflict):
        transaction_intake(external_id="archived-1", user_id=user.pk, type="WITHDRAWAL", amount=Decimal("5"))
    PlatformUser.objects.filter(pk=user.pk).update(is_archived=False)
    with pytest.raises(AccountArchivedConflict):
        transaction_intake(external_id="archived-1", user_id=user.pk, type="WITHDRAWAL", amount=Decimal("5"))
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("100.00")
