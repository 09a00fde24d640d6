"""GET /admin/webhooks/:id/deliveries and POST .../deliveries/:deliveryId/retry."""

import pytest
from django.db import transaction

from backoffice.choices import StaffRole
from backoffice.models import WebhookDelivery
from backoffice.services import webhooks

pytestmark = pytest.mark.django_db

URL = "/api/v1/admin/webhooks"


@pytest.fixture
def endpoint_id(admin_client_api, receiver):
    body = {"url": receiver.url, "events": ["transaction.released", "transaction.rejected"]}
    return admin_client_api.post(URL, body, format="json").json()["data"]["id"]


def emit(event_type="transaction.released"):
    with transaction.atomic():
        return webhooks.webhook_emit(event_type=event_type, data={"transaction_id": "t"})


def test_deliveries_newest_first_with_their_state(admin_client_api, endpoint_id, receiver):
    first, second = emit(), emit("transaction.rejected")
    receiver.answers = [500]
    webhooks.webhook_sweep()
    rows = admin_client_api.get(f"{URL}/{endpoint_id}/deliveries").json()["data"]
    assert [r["eventId"] for r in rows] == [second.id, first.id]
    failed_once, delivered = rows[1], rows[0]
    assert set(failed_once) >= {
        "id",
        "eventId",
        "type",
        "status",
        "attempts",
        "lastStatusCode",
        "lastError",
        "nextAttemptAt",
        "deliveredAt",
    }
    assert (failed_once["status"], failed_once["attempts"], failed_once["lastStatusCode"]) == ("PENDING", 1, 500)
    assert failed_once["nextAttemptAt"] and failed_once["deliveredAt"] is None
    assert (delivered["status"], delivered["type"], delivered["deliveredAt"] is not None) == (
        "DELIVERED",
        "transaction.rejected",
        True,
    )


def test_retry_sends_now_and_answers_the_delivery_after_it(admin_client_api, endpoint_id, receiver):
    emit()
    receiver.answers = [500]
    webhooks.webhook_sweep()
    delivery = WebhookDelivery.objects.get()
    answer = admin_client_api.post(f"{URL}/{endpoint_id}/deliveries/{delivery.pk}/retry")
    assert answer.status_code == 200
    data = answer.json()["data"]
    assert (data["status"], data["attempts"], data["lastStatusCode"]) == ("DELIVERED", 2, 200)
    assert len(receiver.received) == 2
    assert admin_client_api.post(f"{URL}/{endpoint_id}/deliveries/nope/retry").status_code == 404


def test_other_roles_cannot_see_deliveries(staff_client, endpoint_id):
    client, _ = staff_client(StaffRole.MLRO)
    assert client.get(f"{URL}/{endpoint_id}/deliveries").status_code == 403
