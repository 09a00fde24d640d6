"""Reads of webhook endpoints and their deliveries."""

import uuid

from django.db.models import Count, Q, QuerySet

from backoffice.choices import DeliveryStatus
from backoffice.errors import NotFound
from backoffice.models import WebhookDelivery, WebhookEndpoint


def _uuid(value, what: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError):
        raise NotFound(f"{what} not found") from None


def webhook_endpoints() -> QuerySet[WebhookEndpoint]:
    """The endpoints not deleted, newest first."""
    return WebhookEndpoint.objects.filter(deleted_at__isnull=True).order_by("-created_at")


def webhook_endpoint_get(*, endpoint_id) -> WebhookEndpoint:
    endpoint = webhook_endpoints().filter(pk=_uuid(endpoint_id, "Webhook endpoint")).first()
    if endpoint is None:
        raise NotFound("Webhook endpoint not found")
    return endpoint


def webhook_deliveries(*, endpoint: WebhookEndpoint) -> QuerySet[WebhookDelivery]:
    """An endpoint's deliveries with their events, newest first."""
    return endpoint.deliveries.select_related("event", "endpoint").order_by("-created_at", "-id")


def webhook_delivery_get(*, endpoint: WebhookEndpoint, delivery_id) -> WebhookDelivery:
    delivery = webhook_deliveries(endpoint=endpoint).filter(pk=_uuid(delivery_id, "Delivery")).first()
    if delivery is None:
        raise NotFound("Delivery not found")
    return delivery


def webhook_endpoints_failing() -> QuerySet[WebhookEndpoint]:
    """Active endpoints with a FAILED delivery, or a pending one already tried 3 times (the dashboard's flag)."""
    return (
        webhook_endpoints()
        .filter(is_active=True)
        .annotate(
            failing=Count(
                "deliveries",
                filter=Q(deliveries__status=DeliveryStatus.FAILED)
                | Q(deliveries__status=DeliveryStatus.PENDING, deliveries__attempts__gte=3),
            )
        )
        .filter(failing__gt=0)
    )
