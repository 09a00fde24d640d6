"""The receiver in docs/webhooks.md, run as written against real deliveries: it accepts ours and refuses a forgery."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import transaction

from backoffice.services import webhooks
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

DOC = Path(settings.BASE_DIR) / "docs" / "webhooks.md"


def documented_receiver() -> dict:
    [code] = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    namespace: dict = {}
    exec(compile(code, str(DOC), "exec"), namespace)  # the doc's own code, as a reader would paste it
    return namespace


def test_the_documented_receiver_verifies_a_real_delivery(receiver):
    _endpoint, secret = webhooks.webhook_endpoint_create(
        actor=StaffFactory(role="admin"), url=receiver.url, event_types=["user.frozen"]
    )
    with transaction.atomic():
        event = webhooks.webhook_emit(event_type="user.frozen", data={"user_id": "u-1", "is_frozen": True})
    webhooks.webhook_sweep()
    [got] = receiver.received
    doc = documented_receiver()
    assert doc["verify_webhook"](secret, got.headers, got.body) == {
        "id": event.id,
        "type": "user.frozen",
        "createdAt": doc["verify_webhook"](secret, got.headers, got.body)["createdAt"],
        "data": {"userId": "u-1", "isFrozen": True},
    }
    with pytest.raises(doc["InvalidWebhook"]):
        doc["verify_webhook"](secret, got.headers, got.body.replace(b"true", b"false"))
    with pytest.raises(doc["InvalidWebhook"]):
        doc["verify_webhook"]("whsec_" + "A" * 43 + "=", got.headers, got.body)
