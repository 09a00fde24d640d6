"""Webhook secrets at rest: the table holds no usable secret, deliveries still sign with it, a rotated SECRET_KEY
keeps working through its fallback until `reseal_secrets`, and a secret no key opens fails its delivery with a
reason instead of sending it unsigned. (That deliveries sign with the opened secret: test_delivery.py.)"""

import io
from importlib import import_module

import pytest
from django.apps import apps as global_apps
from django.core.management import call_command
from django.db import connection, transaction

from backoffice import sealing
from backoffice.choices import DeliveryStatus
from backoffice.models import WebhookDelivery, WebhookEndpoint
from backoffice.services import webhooks

pytestmark = pytest.mark.django_db


def make(url="https://hooks.platform.example/x"):
    return webhooks.webhook_endpoint_create(actor=None, url=url, event_types=["user.frozen"])


def raw_columns(endpoint_id) -> tuple[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT secret_sealed, previous_secret_sealed FROM backoffice_webhookendpoint WHERE id = %s",
            [endpoint_id.hex if connection.vendor == "sqlite" else endpoint_id],
        )
        return cursor.fetchone()


def test_the_table_holds_neither_the_secret_nor_the_previous_one():
    endpoint, secret = make()
    rotated, new = webhooks.webhook_endpoint_rotate(endpoint=endpoint, actor=None)
    current, previous = raw_columns(endpoint.pk)
    key_text = secret.removeprefix("whsec_")
    for stored in (current, previous):
        assert stored.startswith(sealing.PREFIX)
        assert key_text not in stored and new.removeprefix("whsec_") not in stored
    assert webhooks.signing_secret(rotated) == new


def test_a_rotated_secret_key_keeps_working_through_its_fallback_until_resealed(settings):
    endpoint, secret = make()
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a-new-secret-key-" + "x" * 40, [old_key]
    assert webhooks.signing_secret(WebhookEndpoint.objects.get()) == secret
    out = io.StringIO()
    call_command("reseal_secrets", stdout=out)
    assert "resealed under the current SECRET_KEY: 1" in out.getvalue()
    settings.SECRET_KEY_FALLBACKS = []
    assert webhooks.signing_secret(WebhookEndpoint.objects.get()) == secret
    assert webhooks.webhook_secrets_reseal() == 0  # nothing left to move


def test_a_secret_no_key_opens_fails_the_delivery_with_the_reason_and_sends_nothing(receiver, settings):
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    make(receiver.url)
    with transaction.atomic():
        webhooks.webhook_emit(event_type="user.frozen", data={"user_id": "u1"})
    settings.SECRET_KEY = "someone-changed-the-key-" + "y" * 40
    webhooks.webhook_sweep(limit=10)
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.FAILED
    assert "cannot be opened" in delivery.last_error and "SECRET_KEY_FALLBACKS" in delivery.last_error
    assert receiver.received == []


def test_the_migration_seals_rows_stored_before_it():
    endpoint, _ = make()
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        secret_sealed="whsec_b2xk", previous_secret_sealed="whsec_cHJldg=="
    )
    migration = import_module("backoffice.migrations.0010_webhook_secrets_sealed")
    migration.seal_existing(global_apps, None)
    migration.seal_existing(global_apps, None)  # a second run leaves sealed values alone
    row = WebhookEndpoint.objects.get()
    assert webhooks.signing_secret(row) == "whsec_b2xk"
    assert sealing.unseal(row.previous_secret_sealed, purpose=webhooks.SECRET_PURPOSE) == "whsec_cHJldg=="
    migration.open_existing(global_apps, None)
    assert raw_columns(endpoint.pk) == ("whsec_b2xk", "whsec_cHJldg==")
