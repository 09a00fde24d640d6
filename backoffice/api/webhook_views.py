"""/admin/webhooks: the payment platform's endpoints and their deliveries (contract: events to the payment
platform). Admins only."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action

from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.choices import WebhookEventType
from backoffice.models import WebhookDelivery, WebhookEndpoint
from backoffice.selectors.webhooks import (
    webhook_deliveries,
    webhook_delivery_get,
    webhook_endpoint_get,
    webhook_endpoints,
)
from backoffice.services import webhooks


class WebhookEndpointIn(serializers.Serializer):
    url = serializers.CharField(max_length=2000)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WebhookEventType.values),
        allow_empty=False,
        max_length=20,
        source="event_types",
    )
    description = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class WebhookEndpointUpdateIn(WebhookEndpointIn):
    isActive = serializers.BooleanField(source="is_active", required=False, default=True)


class WebhookEndpointOut(serializers.ModelSerializer):
    isActive = serializers.BooleanField(source="is_active")
    createdAt = serializers.DateTimeField(source="created_at")

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "url", "events", "description", "isActive", "createdAt"]


class WebhookEndpointWithSecretOut(WebhookEndpointOut):
    """The answer that shows the secret: the one to the request that made it (creation, rotation)."""

    secret = serializers.CharField()

    class Meta(WebhookEndpointOut.Meta):
        fields = [*WebhookEndpointOut.Meta.fields, "secret"]


class WebhookDeliveryOut(serializers.ModelSerializer):
    eventId = serializers.CharField(source="event_id")
    type = serializers.CharField(source="event.type")
    lastStatusCode = serializers.IntegerField(source="last_status_code", allow_null=True)
    lastError = serializers.CharField(source="last_error")
    nextAttemptAt = serializers.DateTimeField(source="next_attempt_at", allow_null=True)
    deliveredAt = serializers.DateTimeField(source="delivered_at", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")

    class Meta:
        model = WebhookDelivery
        fields = [
            "id",
            "eventId",
            "type",
            "status",
            "attempts",
            "lastStatusCode",
            "lastError",
            "nextAttemptAt",
            "deliveredAt",
            "createdAt",
        ]


class WebhookViewSet(ApiViewSet):
    """Endpoints of the payment platform's, each sent the events it subscribed to, signed (Standard Webhooks)."""

    serializer_class = WebhookEndpointOut
    capabilities = {
        "list": "webhooks.manage",
        "create": "webhooks.manage",
        "retrieve": "webhooks.manage",
        "update": "webhooks.manage",
        "destroy": "webhooks.manage",
        "rotate_secret": "webhooks.manage",
        "deliveries": "webhooks.manage",
        "retry": "webhooks.manage",
    }

    def get_queryset(self):
        return webhook_endpoints()

    def get_object(self):
        return webhook_endpoint_get(endpoint_id=self.kwargs["pk"])

    @extend_schema(summary="The webhook endpoints (no secrets)")
    def list(self, request):
        return self.paged(self.get_queryset(), WebhookEndpointOut)

    @extend_schema(
        summary="Add an endpoint; its secret is in this answer only",
        request=WebhookEndpointIn,
        responses={201: WebhookEndpointWithSecretOut},
    )
    def create(self, request):
        endpoint, secret = webhooks.webhook_endpoint_create(actor=request.user, **self.input(WebhookEndpointIn))
        endpoint.secret = secret
        return self.ok(WebhookEndpointWithSecretOut(endpoint).data, message="Webhook endpoint created", status=201)

    @extend_schema(summary="One endpoint (no secret)")
    def retrieve(self, request, pk=None):
        return self.ok(WebhookEndpointOut(self.get_object()).data)

    @extend_schema(
        summary="Change an endpoint's URL, events, description or active flag", request=WebhookEndpointUpdateIn
    )
    def update(self, request, pk=None):
        endpoint = webhooks.webhook_endpoint_update(
            endpoint=self.get_object(), actor=request.user, **self.input(WebhookEndpointUpdateIn)
        )
        return self.ok(WebhookEndpointOut(endpoint).data, message="Webhook endpoint updated")

    @extend_schema(summary="Delete an endpoint: nothing more is sent to it", responses={204: None})
    def destroy(self, request, pk=None):
        webhooks.webhook_endpoint_delete(endpoint=self.get_object(), actor=request.user)
        return self.ok(status=204)

    @extend_schema(
        summary="A new secret (in this answer only); the old one is still signed with for a day",
        request=None,
        responses={200: WebhookEndpointWithSecretOut},
    )
    @action(detail=True, methods=["post"], url_path="rotate-secret", **SINGLE)
    def rotate_secret(self, request, pk=None):
        endpoint, secret = webhooks.webhook_endpoint_rotate(endpoint=self.get_object(), actor=request.user)
        endpoint.secret = secret
        return self.ok(WebhookEndpointWithSecretOut(endpoint).data, message="Secret rotated")

    @extend_schema(summary="The endpoint's deliveries, newest first", responses={200: WebhookDeliveryOut(many=True)})
    @action(detail=True, methods=["get"])
    def deliveries(self, request, pk=None):
        return self.paged(webhook_deliveries(endpoint=self.get_object()), WebhookDeliveryOut)

    @extend_schema(
        summary="Send a delivery again now",
        request=None,
        responses={200: WebhookDeliveryOut},
        parameters=[OpenApiParameter("delivery_id", OpenApiTypes.UUID, OpenApiParameter.PATH)],
    )
    @action(detail=True, methods=["post"], url_path=r"deliveries/(?P<delivery_id>[^/.]+)/retry", **SINGLE)
    def retry(self, request, pk=None, delivery_id=None):
        delivery = webhook_delivery_get(endpoint=self.get_object(), delivery_id=delivery_id)
        delivery = webhooks.webhook_retry(delivery=delivery, actor=request.user)
        delivery.refresh_from_db()
        return self.ok(WebhookDeliveryOut(delivery).data, message="Delivery sent again")
