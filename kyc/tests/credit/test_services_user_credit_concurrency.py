"""Concurrent credits on PostgreSQL: the row lock queues them, none is lost, a shared key credits once."""

from decimal import Decimal

import pytest

from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import StaffFactory
from kyc.models import PlatformUser, Transaction
from kyc.services import user_credit
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_concurrent_credits_never_lose_one():
    staff = StaffFactory(role="finance")
    user = PlatformUserFactory()
    outcomes = run_in_threads(8, lambda i: user_credit(user=user, actor=staff, amount=Decimal("10.01"), reason=f"r{i}"))
    assert not [o for o in outcomes if isinstance(o, Exception)]
    user.refresh_from_db()
    assert user.balance == Decimal("80.08")
    assert Transaction.objects.filter(user=user).count() == 8
    balances = sorted(Transaction.objects.filter(user=user).values_list("balance_after", flat=True))
    assert balances == [Decimal("10.01") * n for n in range(1, 9)]


def test_concurrent_retries_with_one_idempotency_key_credit_once():
    staff = StaffFactory(role="finance")
    user = PlatformUserFactory()
    results = run_in_threads(
        6,
        lambda i: user_credit(
            user=user, actor=staff, amount=Decimal("5.00"), reason="retry", idempotency_key="same-key"
        ),
    )
    assert not [r for r in results if isinstance(r, Exception)]
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("5.00")
    assert Transaction.objects.filter(user=user).count() == 1
    assert len({r.transaction_id for r in results}) == 1


def test_concurrent_approvals_credit_once(settings):
    from backoffice.errors import DomainError
    from kyc.services import credit_request_approve

    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("100")
    maker = StaffFactory(role="finance")
    checkers = [StaffFactory(role="finance") for _ in range(4)]
    user = PlatformUserFactory()
    request = user_credit(user=user, actor=maker, amount=Decimal("250.00"), reason="refund").request
    outcomes = run_in_threads(4, lambda i: credit_request_approve(credit_request=request, actor=checkers[i]))
    refused = [o for o in outcomes if isinstance(o, DomainError)]
    assert len(refused) == 3 and {o.status for o in refused} == {409}
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("250.00")
    assert Transaction.objects.filter(user=user).count() == 1
