"""Reads of credit requests (maker-checker)."""

import uuid
from datetime import timedelta
from decimal import Decimal

from django.db.models import QuerySet, Sum
from django.utils import timezone

from backoffice.errors import NotFound
from kyc.choices import CreditStatus
from kyc.models import CreditRequest


def credit_requests() -> QuerySet[CreditRequest]:
    """Credit requests with the wallet holder and both people, newest first (filters: kyc.filtersets)."""
    return CreditRequest.objects.select_related("user", "requested_by", "decided_by").order_by("-created_at", "-id")


def credit_request_get(*, request_id) -> CreditRequest:
    """One credit request; 404 "Credit request not found" for unknown or malformed ids."""
    try:
        pk = uuid.UUID(str(request_id))
    except (TypeError, ValueError):
        raise NotFound("Credit request not found") from None
    request = credit_requests().filter(pk=pk).first()
    if request is None:
        raise NotFound("Credit request not found")
    return request


def credits_awaiting(staff) -> int:
    """Pending credits a colleague asked for, which ``staff`` may decide (maker-checker: not their own)."""
    return CreditRequest.objects.filter(status=CreditStatus.PENDING).exclude(requested_by=staff).count()


# The window over which one requester's credits to one wallet are added up before the approval threshold is
# applied (contract: "over the last 24 hours"): splitting a credit never avoids the second person.
CREDIT_WINDOW = timedelta(hours=24)
# What counts in that sum: money that landed, and requests still waiting (a rejected one moved nothing).
COUNTED = (CreditStatus.CREDITED, CreditStatus.APPROVED, CreditStatus.PENDING)


def credited_in_window(*, user, requester, now=None) -> Decimal:
    """What ``requester`` credited (or asked to credit, still pending) to ``user``'s wallet in the last 24 hours."""
    since = (now or timezone.now()) - CREDIT_WINDOW
    total = CreditRequest.objects.filter(
        user=user, requested_by=requester, created_at__gte=since, status__in=COUNTED
    ).aggregate(total=Sum("amount"))["total"]
    return total or Decimal("0")


def credits_recent(*, user_id, days: int = 7, limit: int = 20) -> list[CreditRequest]:
    """The latest credits to one wallet (every requester, every state) that an approver weighs, newest first."""
    since = timezone.now() - timedelta(days=days)
    return list(credit_requests().filter(user_id=user_id, created_at__gte=since)[:limit])
