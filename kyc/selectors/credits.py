"""Reads of credit requests (maker-checker)."""

import uuid

from django.db.models import QuerySet

from backoffice.errors import NotFound
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
