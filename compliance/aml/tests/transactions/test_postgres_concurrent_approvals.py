"""On PostgreSQL, with real threads: two (and more) people approving one release request at once apply it once."""

from decimal import Decimal

import pytest

from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.models import ApprovalRequest, AuditLog
from backoffice.services.approvals import approval_approve
from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import StaffFactory
from compliance.aml.tests.transactions.helpers import make_rule
from kyc.models import PlatformUser, TransactionEvent
from kyc.services.ledger import held_transaction_release_ask, transaction_intake
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_concurrent_approvals_of_one_release_move_the_money_once(settings):
    settings.AML_ALERTS_BACKGROUND = False
    settings.HELD_RELEASE_FOUR_EYES_ABOVE = Decimal("500")
    make_rule("threshold", action="hold", thresholdAmount=500)
    user = PlatformUserFactory(balance=Decimal("1000"))
    tx = transaction_intake(
        external_id="held-4e", user_id=user.pk, type="WITHDRAWAL", amount=Decimal("600")
    ).transaction
    maker = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    request = held_transaction_release_ask(transaction_id=tx.pk, actor=maker, note="checked").request
    checkers = [StaffFactory(role=StaffRole.MLRO) for _ in range(4)]

    def approve(i):
        return approval_approve(request=ApprovalRequest(pk=request.pk), actor=checkers[i], reason="fine")

    outcomes = run_in_threads(4, approve)
    done = [o for o in outcomes if isinstance(o, ApprovalRequest)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(done) == 1 and len(refused) == 3, outcomes
    assert all(getattr(o, "code", "") == "INVALID_TRANSITION" for o in refused), refused
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("400.00")
    assert ApprovalRequest.objects.get(pk=request.pk).status == ApprovalStatus.APPLIED
    assert TransactionEvent.objects.filter(transaction=tx, to_status="COMPLETED").count() == 1
    assert AuditLog.objects.filter(action="approval.apply", object_id=str(request.pk)).count() == 1
