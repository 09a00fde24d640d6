"""The dual-control mechanism itself, on a kind registered for the test: request or apply at once, four eyes,
applied once, audited for both people, expiry."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError
from django.utils import timezone

from backoffice import dual_control
from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.errors import Conflict, Forbidden, FourEyesRequired, InvalidTransition, ValidationFailed
from backoffice.models import ApprovalRequest, AuditLog
from backoffice.services import approvals
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

APPLIED: list[dict] = []


@pytest.fixture(autouse=True)
def test_kind(settings):
    settings.TEST_APPROVAL_ABOVE = Decimal("1000")
    APPLIED.clear()
    action = dual_control.register(
        dual_control.SensitiveAction(
            kind="test.pay",
            label="Test payment",
            request_capability="users.credit",
            approve_capability="users.credit",
            above_setting="TEST_APPROVAL_ABOVE",
            apply=lambda *, payload, actor, request: APPLIED.append({"payload": payload, "actor": actor}) or "done",
            describe=lambda request: [f"Pay {request.payload['amount']}"],
        )
    )
    yield action
    dual_control._POLICY.pop("test.pay", None)


def ask(actor, amount, target="t-1"):
    return approvals.approval_request(
        kind="test.pay",
        actor=actor,
        summary=f"Pay {amount}",
        payload={"amount": str(amount)},
        reason="supplier invoice",
        target_type="test",
        target_id=target,
        amount=Decimal(amount),
    )


def test_below_the_threshold_the_action_applies_at_once_and_no_request_is_kept():
    maker = StaffFactory(role=StaffRole.FINANCE)
    outcome = ask(maker, "1000")
    assert not outcome.waits and outcome.result == "done"
    assert APPLIED == [{"payload": {"amount": "1000"}, "actor": maker}]
    assert not ApprovalRequest.objects.exists()


def test_above_it_a_request_waits_and_nothing_is_applied_until_a_second_person_approves():
    maker, checker = StaffFactory(role=StaffRole.FINANCE), StaffFactory(role=StaffRole.ADMIN)
    outcome = ask(maker, "1000.01")
    assert outcome.waits and APPLIED == []
    request = outcome.request
    assert request.status == ApprovalStatus.PENDING and request.expires_at > timezone.now()

    approved = approvals.approval_approve(request=request, actor=checker, reason="invoice checked")
    assert approved.status == ApprovalStatus.APPLIED and approved.applied_at is not None
    assert approved.decided_by == checker and approved.decision_reason == "invoice checked"
    assert APPLIED == [{"payload": {"amount": "1000.01"}, "actor": checker}]
    # both people are in the audit log: the requester asked, the approver approved and applied
    entries = list(
        AuditLog.objects.filter(object_id=str(request.pk)).order_by("sequence").values_list("action", "actor")
    )
    assert entries == [
        ("approval.request", maker.pk),
        ("approval.approve", checker.pk),
        ("approval.apply", checker.pk),
    ]


def test_the_requester_cannot_decide_their_own_request_nor_a_role_outside_the_policy():
    maker = StaffFactory(role=StaffRole.FINANCE)
    request = ask(maker, "5000").request
    with pytest.raises(FourEyesRequired):
        approvals.approval_approve(request=request, actor=maker, reason="me")
    with pytest.raises(FourEyesRequired):
        approvals.approval_reject(request=request, actor=maker, reason="me")
    with pytest.raises(Forbidden):
        approvals.approval_approve(request=request, actor=StaffFactory(role=StaffRole.MLRO), reason="x")
    with pytest.raises(Forbidden):
        ask(StaffFactory(role=StaffRole.SUPPORT), "5000", target="t-2")
    request.refresh_from_db()
    assert request.status == ApprovalStatus.PENDING and APPLIED == []


def test_approved_twice_applies_once():
    maker = StaffFactory(role=StaffRole.FINANCE)
    first, second = StaffFactory(role=StaffRole.FINANCE), StaffFactory(role=StaffRole.ADMIN)
    request = ask(maker, "5000").request
    approvals.approval_approve(request=request, actor=first, reason="ok")
    with pytest.raises(InvalidTransition):
        approvals.approval_approve(request=request, actor=second, reason="ok too")
    with pytest.raises(InvalidTransition):
        approvals.approval_reject(request=request, actor=second, reason="too late")
    assert len(APPLIED) == 1
    assert AuditLog.objects.filter(action="approval.apply", object_id=str(request.pk)).count() == 1


def test_a_refused_application_refuses_the_approval_and_keeps_nothing(test_kind):
    def refuse(**_):
        raise Conflict("The wallet is frozen")

    dual_control.register(
        dual_control.SensitiveAction(**{**test_kind.__dict__, "apply": refuse})  # same row, a failing apply
    )
    maker, checker = StaffFactory(role=StaffRole.FINANCE), StaffFactory(role=StaffRole.ADMIN)
    request = ask(maker, "5000").request
    with pytest.raises(Conflict):
        approvals.approval_approve(request=request, actor=checker, reason="ok")
    request.refresh_from_db()
    assert request.status == ApprovalStatus.PENDING and request.decided_by is None
    assert not AuditLog.objects.filter(action="approval.approve").exists()


def test_rejection_needs_a_reason_and_applies_nothing():
    maker, checker = StaffFactory(role=StaffRole.FINANCE), StaffFactory(role=StaffRole.ADMIN)
    request = ask(maker, "5000").request
    with pytest.raises(ValidationFailed):
        approvals.approval_reject(request=request, actor=checker, reason="  ")
    rejected = approvals.approval_reject(request=request, actor=checker, reason="no invoice attached")
    assert rejected.status == ApprovalStatus.REJECTED and APPLIED == []
    assert AuditLog.objects.filter(action="approval.reject", actor=checker, object_id=str(request.pk)).exists()


def test_one_waiting_request_per_target():
    maker = StaffFactory(role=StaffRole.FINANCE)
    ask(maker, "5000")
    with pytest.raises(Conflict):
        ask(maker, "6000")
    assert ApprovalRequest.objects.count() == 1


def test_a_request_past_its_lifetime_expires_and_can_no_longer_be_approved(settings):
    maker, checker = StaffFactory(role=StaffRole.FINANCE), StaffFactory(role=StaffRole.ADMIN)
    request = ask(maker, "5000").request
    ApprovalRequest.objects.filter(pk=request.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(InvalidTransition):
        approvals.approval_approve(request=request, actor=checker, reason="late")
    assert approvals.approvals_expire() == 1
    request.refresh_from_db()
    assert request.status == ApprovalStatus.EXPIRED and APPLIED == []
    assert AuditLog.objects.filter(action="approval.expire", object_id=str(request.pk), actor=None).exists()
    # the target is free for a new request once the old one lapsed
    assert ask(maker, "5000").waits


def test_the_periodic_task_expires_due_requests():
    from backoffice.background import approvals_expire

    request = ask(StaffFactory(role=StaffRole.FINANCE), "5000").request
    ApprovalRequest.objects.filter(pk=request.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert approvals_expire() == 1


def test_the_database_refuses_a_decision_by_the_requester_and_an_application_without_its_status():
    maker = StaffFactory(role=StaffRole.FINANCE)
    request = ask(maker, "5000").request
    with pytest.raises(IntegrityError):
        ApprovalRequest.objects.filter(pk=request.pk).update(status=ApprovalStatus.REJECTED, decided_by=maker)


def test_the_database_refuses_applied_at_without_applied_status():
    request = ask(StaffFactory(role=StaffRole.FINANCE), "5000").request
    with pytest.raises(IntegrityError):
        ApprovalRequest.objects.filter(pk=request.pk).update(applied_at=timezone.now())
