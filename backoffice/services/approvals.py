"""Dual control: a sensitive action becomes a request a second person decides, applied exactly once
(docs/dual-control.md).

``approval_request`` asks the declared policy (``backoffice.dual_control``) whether the action needs a second
person: if so it stores a ``PENDING`` request, otherwise it applies the change at once through the same apply
function an approval would call. ``approval_approve`` / ``approval_reject`` decide a request: the row is locked
and its status moved by a conditional update, so two approvals (two tabs, two people, a retry) apply it once;
the second answers 409. Every step is audited with both people named.

A flow that keeps its own record (the credit request of the API) opens the request with ``approval_open`` and,
when it is decided through its own endpoints, keeps the approval in step with ``approval_settle``.
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from backoffice import events
from backoffice.choices import ApprovalStatus
from backoffice.dual_control import SensitiveAction, policy
from backoffice.errors import Conflict, Forbidden, FourEyesRequired, InvalidTransition, ValidationFailed
from backoffice.models import ApprovalRequest
from backoffice.toolkit import Actor, lock_row

REASON_MAX = 500


@dataclass(frozen=True)
class ApprovalOutcome:
    """What asking for a sensitive action did: a request now waits (``request``), or the change was made at once
    (``result``: what the apply function returned)."""

    request: ApprovalRequest | None = None
    result: Any = None

    @property
    def waits(self) -> bool:
        return self.request is not None


def approval_needed(*, kind: str, amount: Decimal | None = None, severity: str | None = None) -> bool:
    """Whether the policy sends this action of this amount or severity to a second person."""
    return policy(kind).needs_second_person(amount=amount, severity=severity)


def _text(value: str, *, name: str, required: bool) -> str:
    value = (value or "").strip()
    if required and not value:
        raise ValidationFailed("A reason is required", details={name: ["A reason is required."]})
    if len(value) > REASON_MAX:
        raise ValidationFailed("Validation error", details={name: [f"At most {REASON_MAX} characters."]})
    return value


@transaction.atomic
def approval_open(
    *,
    kind: str,
    actor: Actor,
    summary: str,
    payload: dict[str, Any],
    reason: str = "",
    target_type: str = "",
    target_id: str = "",
    amount: Decimal | None = None,
    severity: str = "",
) -> ApprovalRequest:
    """Store a pending request for ``kind`` (the caller decided it needs a second person); 403 for a role that may
    not ask for it."""
    action = policy(kind)
    if not action.may_request(actor):
        raise Forbidden(f"Your role does not allow asking for: {action.label.lower()}")
    lifetime = action.expires_after()
    reason = _text(reason, name="reason", required=False)
    target_id = str(target_id or "")
    if target_id:
        # a request past its time must not block a new one: lapse it first
        due = ApprovalRequest.objects.filter(
            kind=kind, target_type=target_type, target_id=target_id, status=ApprovalStatus.PENDING
        ).filter(expires_at__lte=timezone.now())
        for stale in due.select_for_update():
            _expire(stale)
    try:
        with transaction.atomic():
            request = ApprovalRequest.objects.create(
                kind=kind,
                target_type=target_type,
                target_id=target_id,
                summary=summary[:255],
                payload=payload,
                amount=amount,
                severity=severity or "",
                requested_by=actor,
                reason=reason,
                expires_at=timezone.now() + lifetime if lifetime else None,
            )
    except IntegrityError:
        raise Conflict(f"This {action.label.lower()} is already waiting for a second person") from None
    events.approval_requested(actor=actor, request=request)
    return request


@transaction.atomic
def approval_request(
    *, kind: str, actor: Actor, amount: Decimal | None = None, severity: str = "", **ask: Any
) -> ApprovalOutcome:
    """A sensitive action: a pending request when the policy wants a second person, else the change at once
    (the kind's apply function with ``ask["payload"]``, ``request=None``, this actor). ``ask``: the rest of
    ``approval_open``'s fields (summary, payload, reason, target_type, target_id)."""
    action = policy(kind)
    if not action.may_request(actor):
        raise Forbidden(f"Your role does not allow: {action.label.lower()}")
    if not action.needs_second_person(amount=amount, severity=severity or None):
        return ApprovalOutcome(result=action.apply(payload=ask["payload"], actor=actor, request=None))
    return ApprovalOutcome(request=approval_open(kind=kind, actor=actor, amount=amount, severity=severity, **ask))


def _decidable(request: ApprovalRequest, actor: Actor) -> SensitiveAction:
    """The locked request may be decided now by ``actor``: 409 unless pending and in time, 403 for a role the
    policy does not name, 403 FOUR_EYES_REQUIRED for the requester."""
    if request.status != ApprovalStatus.PENDING:
        raise InvalidTransition(f"This request is already {request.get_status_display().lower()}")
    if request.is_due:
        raise InvalidTransition("This request has expired: ask again")
    action = policy(request.kind)
    if not action.may_approve(actor):
        raise Forbidden(f"Your role does not allow deciding: {action.label.lower()}")
    if actor.pk == request.requested_by_id:
        raise FourEyesRequired()
    return action


def _move(request: ApprovalRequest, *, source: str, **fields) -> None:
    """The status move as one conditional UPDATE: it lands only from ``source``, so a second decision that got
    past the lock (a database without row locks) changes nothing and is refused."""
    if ApprovalRequest.objects.filter(pk=request.pk, status=source).update(**fields) != 1:
        raise InvalidTransition("This request was decided by someone else meanwhile")
    for name, value in fields.items():
        setattr(request, name, value)


@transaction.atomic
def approval_approve(*, request: ApprovalRequest, actor: Actor, reason: str = "") -> ApprovalRequest:
    """A second eligible person approves: the change is applied now, once, in this transaction (its refusal
    refuses the approval and nothing is kept). The returned request carries what apply returned as ``result``
    (not stored: a new key's secret is shown to the approver once)."""
    reason = _text(reason, name="reason", required=False)
    locked = lock_row(request, related=("requested_by",))
    action = _decidable(locked, actor)
    now = timezone.now()
    _move(
        locked,
        source=ApprovalStatus.PENDING,
        status=ApprovalStatus.APPROVED,
        decided_by=actor,
        decided_at=now,
        decision_reason=reason,
    )
    events.approval_decided(actor=actor, request=locked)
    locked.result = action.apply(payload=locked.payload, actor=actor, request=locked)
    _move(locked, source=ApprovalStatus.APPROVED, status=ApprovalStatus.APPLIED, applied_at=timezone.now())
    events.approval_applied(actor=actor, request=locked)
    return locked


@transaction.atomic
def approval_reject(*, request: ApprovalRequest, actor: Actor, reason: str) -> ApprovalRequest:
    """A second eligible person refuses, with the reason; nothing changes."""
    reason = _text(reason, name="reason", required=True)
    locked = lock_row(request, related=("requested_by",))
    action = _decidable(locked, actor)
    _move(
        locked,
        source=ApprovalStatus.PENDING,
        status=ApprovalStatus.REJECTED,
        decided_by=actor,
        decided_at=timezone.now(),
        decision_reason=reason,
    )
    events.approval_decided(actor=actor, request=locked)
    if action.on_reject is not None:
        action.on_reject(request=locked, actor=actor)
    return locked


def approvals_lock_target(*, kind: str, target_type: str, target_id) -> None:
    """Lock the pending requests of one target first, as ``approval_approve`` does, so a flow deciding the target
    itself (then settling its request) takes the locks in the same order and two ways in never deadlock."""
    list(
        ApprovalRequest.objects.select_for_update()
        .filter(kind=kind, target_type=target_type, target_id=str(target_id), status=ApprovalStatus.PENDING)
        .values_list("pk", flat=True)
    )


@transaction.atomic
def approval_settle(*, kind: str, target_type: str, target_id, actor: Actor, approved: bool, reason: str = "") -> int:
    """The target was decided through its own flow (a credit approved by the credit endpoint): its pending request
    follows, applied or rejected by that person. A request the flow's own step is applying already (approved here)
    is left alone. Returns how many requests moved (0 or 1)."""
    rows = ApprovalRequest.objects.select_for_update().filter(
        kind=kind, target_type=target_type, target_id=str(target_id), status=ApprovalStatus.PENDING
    )
    moved = 0
    for request in rows:
        now = timezone.now()
        fields = {
            "decided_by": actor,
            "decided_at": now,
            "decision_reason": _text(reason, name="reason", required=False),
        }
        if approved:
            _move(request, source=ApprovalStatus.PENDING, status=ApprovalStatus.APPLIED, applied_at=now, **fields)
        else:
            _move(request, source=ApprovalStatus.PENDING, status=ApprovalStatus.REJECTED, **fields)
        events.approval_decided(actor=actor, request=request)
        if approved:
            events.approval_applied(actor=actor, request=request)
        moved += 1
    return moved


@transaction.atomic
def approvals_overtaken(*, kind: str, target_type: str, target_id) -> int:
    """The target was decided otherwise (a held transaction rejected while its release waited): its pending
    requests lapse as EXPIRED, since applying them could only fail now."""
    rows = ApprovalRequest.objects.select_for_update().filter(
        kind=kind, target_type=target_type, target_id=str(target_id), status=ApprovalStatus.PENDING
    )
    return sum(_expire(request) for request in rows)


def _expire(request: ApprovalRequest) -> int:
    if ApprovalRequest.objects.filter(pk=request.pk, status=ApprovalStatus.PENDING).update(
        status=ApprovalStatus.EXPIRED
    ):
        request.status = ApprovalStatus.EXPIRED
        events.approval_expired(request=request)
        action = policy(request.kind)
        if action.on_expire is not None:
            action.on_expire(request=request)
        return 1
    return 0


def approvals_expire(*, now=None) -> int:
    """Mark every pending request past ``expires_at`` EXPIRED (the periodic task, and the queue before it reads);
    each in its own transaction, so one failing expiry hook does not keep the others waiting."""
    now = now or timezone.now()
    due = list(
        ApprovalRequest.objects.filter(status=ApprovalStatus.PENDING, expires_at__lte=now).values_list("pk", flat=True)
    )
    expired = 0
    for pk in due:
        with transaction.atomic():
            request = ApprovalRequest.objects.select_for_update().filter(pk=pk).first()
            if request is not None:
                expired += _expire(request)
    return expired
