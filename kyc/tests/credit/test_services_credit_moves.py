"""A credit request's decisions are moves of its state machine (``fsm_move``): refusals, history and audit."""

from decimal import Decimal

import pytest

from backoffice.choices import StaffRole
from backoffice.errors import InvalidTransition
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from kyc import events
from kyc.errors import UserArchived
from kyc.models import CreditRequest, Transaction
from kyc.services import credit_request_approve, credit_request_reject, user_archive, user_credit
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending(settings):
    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("5000.00")
    maker = StaffFactory(role=StaffRole.FINANCE)
    user = PlatformUserFactory()
    request = user_credit(user=user, actor=maker, amount=Decimal("6000.00"), reason="Refund of a failed payment")
    return request.request


def history(request: CreditRequest) -> list[tuple]:
    return list(request.events.order_by("id").values_list("from_status", "to_status", "actor_id", "note"))


def test_an_approval_leaves_the_request_s_whole_history_and_one_audit_entry(pending):
    checker = StaffFactory(role=StaffRole.ADMIN)
    approved = credit_request_approve(credit_request=pending, actor=checker, reason="Ticket 4411")
    assert (approved.status, approved.decided_by, approved.decision_reason) == ("APPROVED", checker, "Ticket 4411")
    assert history(pending) == [
        ("", "PENDING", pending.requested_by_id, "Refund of a failed payment"),
        ("PENDING", "APPROVED", checker.pk, "Ticket 4411"),
    ]
    entry = AuditLog.objects.get(action="user.credit_approve")
    assert entry.changes["transaction_id"] == str(approved.transaction_id)
    assert entry.changes["new_balance"] == "6000.00" and entry.object_id == str(pending.user_id)


def test_a_decided_request_is_a_409_saying_what_became_of_it(pending):
    checker = StaffFactory(role=StaffRole.FINANCE)
    credit_request_reject(credit_request=pending, actor=checker, reason="No ticket")
    for decide in (credit_request_approve, credit_request_reject):
        with pytest.raises(InvalidTransition) as caught:
            decide(credit_request=pending, actor=checker, reason="again")
        assert (caught.value.status, caught.value.message) == (409, "Credit request is already REJECTED")
    assert [row[:2] for row in history(pending)] == [("", "PENDING"), ("PENDING", "REJECTED")]


def test_approving_for_an_archived_user_moves_nothing_and_keeps_the_request_pending(pending):
    checker = StaffFactory(role=StaffRole.ADMIN)
    user_archive(user=pending.user, actor=checker)
    with pytest.raises(UserArchived):
        credit_request_approve(credit_request=pending, actor=checker)
    pending.refresh_from_db()
    assert pending.status == "PENDING" and pending.decided_by is None
    assert [row[:2] for row in history(pending)] == [("", "PENDING")]
    assert not Transaction.objects.exists() and not AuditLog.objects.filter(action="user.credit_approve").exists()


def test_kyc_s_stored_action_names_do_not_change():
    # old entries keep these names: a rename would split one action's history in two
    assert sorted(events.Action) == [
        "transaction.intake",
        "transaction.reject",
        "transaction.release",
        "user.archive",
        "user.credit",
        "user.credit_approve",
        "user.credit_reject",
        "user.credit_request",
        "user.freeze",
        "user.purge",
        "user.risk",
        "user.unarchive",
        "user.unfreeze",
        "user.update",
        "user.verification",
    ]
