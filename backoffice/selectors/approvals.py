"""Reads of dual-control requests: the queue "waiting for my approval", a request, and the change in words."""

import uuid
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils import timezone

from backoffice.choices import ApprovalStatus
from backoffice.dual_control import kinds_decidable_by, policy
from backoffice.errors import NotFound
from backoffice.models import ApprovalRequest


def approvals() -> QuerySet[ApprovalRequest]:
    """Every request with both people joined, newest first."""
    return ApprovalRequest.objects.select_related("requested_by", "decided_by").order_by("-created_at", "-id")


def approvals_visible_to(actor) -> QuerySet[ApprovalRequest]:
    """What ``actor`` may read: the requests of the kinds they may decide, and the ones they asked for."""
    return approvals().filter(Q(kind__in=kinds_decidable_by(actor)) | Q(requested_by=actor))


def approvals_waiting_for(actor) -> QuerySet[ApprovalRequest]:
    """The queue: pending, in time, of a kind ``actor`` may decide, asked for by someone else; oldest first."""
    return (
        approvals()
        .filter(status=ApprovalStatus.PENDING, kind__in=kinds_decidable_by(actor))
        .exclude(requested_by=actor)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .order_by("created_at", "id")
    )


def approval_pending_for(*, kind: str, target_type: str, target_id) -> ApprovalRequest | None:
    """The request of ``kind`` waiting on one target (one at most), with its requester; None without one."""
    return (
        approvals()
        .filter(kind=kind, target_type=target_type, target_id=str(target_id), status=ApprovalStatus.PENDING)
        .first()
    )


def approval_get(*, actor, approval_id) -> ApprovalRequest:
    """One request ``actor`` may read (404 otherwise: another kind's requests are not theirs to learn about)."""
    try:
        pk = uuid.UUID(str(approval_id))
    except (TypeError, ValueError):
        raise NotFound("Approval request not found") from None
    request = approvals_visible_to(actor).filter(pk=pk).first()
    if request is None:
        raise NotFound("Approval request not found")
    return request


@dataclass(frozen=True)
class ApprovalView:
    """A request as the approver reads it: what kind, the change in words, and what else to weigh."""

    label: str
    changes: list[str]
    context: list[str]


def approval_view(request: ApprovalRequest) -> ApprovalView:
    action = policy(request.kind)
    return ApprovalView(
        label=action.label,
        changes=action.describe(request),
        context=action.context(request) if action.context is not None else [],
    )
