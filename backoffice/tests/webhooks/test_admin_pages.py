"""The admin pages: an endpoint added with its secret shown once, rotated, deleted; a delivery sent again; a
failing endpoint flagged on the dashboard."""

import re

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from backoffice import sealing
from backoffice.choices import DeliveryStatus, StaffRole
from backoffice.models import WebhookDelivery, WebhookEndpoint
from backoffice.services import webhooks
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_site():
    client = Client()
    client.force_login(StaffFactory(role=StaffRole.ADMIN))
    return client


def test_add_shows_the_secret_once_and_refuses_a_private_url(admin_site):
    add = reverse("admin:backoffice_webhookendpoint_add")
    bad = admin_site.post(add, {"url": "https://10.0.0.1/x", "events": ["user.frozen"], "description": ""})
    assert bad.status_code == 200 and "private, loopback or reserved" in bad.content.decode()
    assert not WebhookEndpoint.objects.exists()
    good = admin_site.post(
        add,
        {"url": "https://hooks.platform.example/x", "events": ["user.frozen"], "description": "Ledger"},
        follow=True,
    )
    page = good.content.decode()
    secret = re.search(r"whsec_[A-Za-z0-9+/=]+", page).group(0)
    assert webhooks.signing_secret(WebhookEndpoint.objects.get()) == secret
    endpoint = WebhookEndpoint.objects.get()
    again = admin_site.get(reverse("admin:backoffice_webhookendpoint_change", args=[endpoint.pk])).content.decode()
    assert secret not in again


def test_rotate_asks_then_rotates_on_post(admin_site):
    endpoint, old = webhooks.webhook_endpoint_create(
        actor=None, url="https://hooks.platform.example/x", event_types=["user.frozen"]
    )
    url = reverse("admin:backoffice_webhookendpoint_rotate_secret", args=[endpoint.pk])
    assert "Rotate the secret" in admin_site.get(url).content.decode()
    endpoint.refresh_from_db()
    assert webhooks.signing_secret(endpoint) == old  # a GET changes nothing
    page = admin_site.post(url, follow=True).content.decode()
    endpoint.refresh_from_db()
    new = webhooks.signing_secret(endpoint)
    previous = sealing.unseal(endpoint.previous_secret_sealed, purpose=webhooks.SECRET_PURPOSE)
    assert new != old and new in page and previous == old


def test_delete_action_and_resend_and_the_dashboard_flag(admin_site, receiver, settings):
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    endpoint, _ = webhooks.webhook_endpoint_create(actor=None, url=receiver.url, event_types=["user.frozen"])
    with transaction.atomic():
        webhooks.webhook_emit(event_type="user.frozen", data={"user_id": "u", "is_frozen": True})
    receiver.answers = [500]
    webhooks.webhook_sweep()
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.FAILED
    dashboard = admin_site.get("/admin/").content.decode()
    assert "Webhook endpoints failing" in dashboard
    page = admin_site.get(reverse("admin:backoffice_webhookdelivery_change", args=[delivery.pk])).content.decode()
    assert "Send it again now" in page and "HTTP 500" in page
    assert admin_site.get(reverse("admin:backoffice_webhookdelivery_resend", args=[delivery.pk])).status_code == 405
    admin_site.post(reverse("admin:backoffice_webhookdelivery_resend", args=[delivery.pk]))
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED
    changelist = reverse("admin:backoffice_webhookendpoint_changelist")
    admin_site.post(changelist, {"action": "delete_endpoints", "_selected_action": [str(endpoint.pk)]})
    assert WebhookEndpoint.objects.get().deleted_at is not None


def test_only_admins_open_the_pages():
    client = Client()
    client.force_login(StaffFactory(role=StaffRole.MLRO))
    assert client.get(reverse("admin:backoffice_webhookendpoint_changelist")).status_code == 403
    assert client.get(reverse("admin:backoffice_webhookdelivery_changelist")).status_code == 403
