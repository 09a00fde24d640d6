"""On PostgreSQL, with real threads: a pending credit approved at once from the approval queue and the credit
endpoint's service pays once; concurrent split credits by one person cannot all pass under the threshold."""

from decimal import Decimal

import pytest

from backoffice.choices import ApprovalStatus
from backoffice.models import ApprovalRequest
from backoffice.services.approvals import approval_approve
from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import StaffFactory
from kyc.models import CreditRequest, PlatformUser, Transaction
from kyc.services import credit_request_approve, user_credit
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_queue_and_endpoint_approving_at_once_credit_once(settings):
    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("1000")
    maker = StaffFactory(role="finance")
    checkers = [StaffFactory(role="finance") for _ in range(4)]
    user = PlatformUserFactory()
    credit = user_credit(user=user, actor=maker, amount=Decimal("5000"), reason="promotion").request
    approval = ApprovalRequest.objects.get(kind="kyc.credit", target_id=str(credit.pk))

    def approve(i):
        if i % 2:
            return approval_approve(request=ApprovalRequest(pk=approval.pk), actor=checkers[i], reason="ok")
        return credit_request_approve(credit_request=CreditRequest(pk=credit.pk), actor=checkers[i], reason="ok")

    outcomes = run_in_threads(4, approve)
    assert sum(1 for o in outcomes if not isinstance(o, Exception)) == 1, outcomes
    assert all(getattr(o, "status", 409) == 409 for o in outcomes if isinstance(o, Exception)), outcomes
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("5000.00")
    assert Transaction.objects.filter(user=user).count() == 1
    assert ApprovalRequest.objects.get(pk=approval.pk).status == ApprovalStatus.APPLIED


def test_concurrent_split_credits_by_one_person_stop_at_the_threshold(settings):
    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("10000")
    maker = StaffFactory(role="finance")
    user = PlatformUserFactory()
    outcomes = run_in_threads(
        4, lambda i: user_credit(user=user, actor=maker, amount=Decimal("5000"), reason=f"part {i}")
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(o.request.status for o in outcomes) == ["CREDITED", "CREDITED", "PENDING", "PENDING"]
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("10000.00")
