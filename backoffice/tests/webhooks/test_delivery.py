"""The outbox and delivery: atomic with the change, at least once, signed, retried with growing pauses, FAILED at
last, resent on demand, never to an endpoint not subscribed, and refused at delivery when the host turned private."""

import base64
import datetime as dt
import hashlib
import hmac
import json
import socket

import pytest
from django.db import transaction
from django.utils import timezone

from backoffice.choices import DeliveryStatus, WebhookEventType
from backoffice.models import WebhookDelivery, WebhookEvent
from backoffice.services import webhooks
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

RELEASED = WebhookEventType.TRANSACTION_RELEASED


def endpoint_for(receiver, *types):
    endpoint, secret = webhooks.webhook_endpoint_create(
        actor=StaffFactory(role="admin"), url=receiver.url, event_types=list(types or [RELEASED])
    )
    return endpoint, secret


def emit(event_type=RELEASED, **data):
    with transaction.atomic():
        return webhooks.webhook_emit(event_type=event_type, data={"transaction_id": "t1", **data})


def verify(secret: str, headers: dict, body: bytes) -> bool:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(sig == f"v1,{expected}" for sig in headers["webhook-signature"].split())


def test_a_rolled_back_change_has_no_event_and_a_committed_one_has_its_deliveries(receiver):
    endpoint_for(receiver)
    with pytest.raises(RuntimeError), transaction.atomic():
        webhooks.webhook_emit(event_type=RELEASED, data={"transaction_id": "undone"})
        raise RuntimeError("the change failed")
    assert not WebhookEvent.objects.exists() and not WebhookDelivery.objects.exists()
    event = emit()
    assert WebhookDelivery.objects.filter(event=event, status=DeliveryStatus.PENDING).count() == 1


def test_a_delivery_is_signed_and_carries_the_event(receiver):
    endpoint, secret = endpoint_for(receiver)
    event = emit(amount=75000.0)
    assert webhooks.webhook_sweep() == {"delivered": 1, "pending": 0, "failed": 0}
    [got] = receiver.received
    headers = {k.lower(): v for k, v in got.headers.items()}
    assert headers["content-type"] == "application/json"
    assert headers["webhook-id"] == event.id
    assert abs(int(headers["webhook-timestamp"]) - timezone.now().timestamp()) < 30
    assert verify(secret, headers, got.body)
    body = json.loads(got.body)
    assert body["id"] == event.id and body["type"] == "transaction.released"
    assert body["data"] == {"transactionId": "t1", "amount": 75000.0} and body["createdAt"].endswith("Z")
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.last_status_code == 200 and delivery.attempts == 1


def test_only_subscribed_active_endpoints_get_an_event(receiver):
    endpoint_for(receiver, WebhookEventType.USER_FROZEN)
    assert emit() is None
    assert not WebhookDelivery.objects.exists()


def test_retries_with_growing_pauses_then_failed_then_resent(receiver, settings):
    settings.WEBHOOK_MAX_ATTEMPTS = 4
    endpoint_for(receiver)
    event = emit()
    receiver.answers = [500, 503, 500, 500]
    pauses = []
    for attempt in range(1, 5):
        delivery = webhooks.webhook_deliver(delivery_id=WebhookDelivery.objects.get().pk)
        assert delivery.attempts == attempt and delivery.last_status_code in (500, 503)
        if attempt < 4:
            assert delivery.status == DeliveryStatus.PENDING
            pauses.append((delivery.next_attempt_at - timezone.now()).total_seconds())
            # not due yet: the sweep leaves it; make it due as the clock would
            assert webhooks.webhook_sweep() == {"delivered": 0, "pending": 0, "failed": 0}
            WebhookDelivery.objects.update(next_attempt_at=timezone.now() - dt.timedelta(seconds=1))
    assert pauses == sorted(pauses) and pauses[0] < pauses[-1]
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.FAILED and delivery.next_attempt_at is None
    assert "HTTP 500" in delivery.last_error
    # every attempt carried the event's one id
    assert {r.headers["webhook-id"] for r in receiver.received} == {event.id}
    resent = webhooks.webhook_retry(delivery=delivery, actor=StaffFactory(role="admin"))
    assert resent.status == DeliveryStatus.DELIVERED and len(receiver.received) == 5


def test_the_schedule_reaches_about_a_day():
    total = sum(webhooks.pause_after(n).total_seconds() for n in range(1, 8))
    assert 20 * 3600 <= total <= 30 * 3600


def test_a_redirect_is_not_followed(receiver):
    endpoint_for(receiver)
    emit()
    receiver.answers = [302]
    delivery = webhooks.webhook_deliver(delivery_id=WebhookDelivery.objects.get().pk)
    assert delivery.status == DeliveryStatus.PENDING and delivery.last_status_code == 302
    assert len(receiver.received) == 1


def test_a_host_that_now_resolves_to_a_private_address_is_refused_at_delivery(receiver, settings, monkeypatch):
    settings.WEBHOOK_ALLOWED_HOSTS = []
    endpoint, _ = webhooks.webhook_endpoint_create(
        actor=StaffFactory(role="admin"), url="https://hooks.platform.example/x", event_types=[RELEASED]
    )
    emit()
    # DNS rebinding: public when saved (it did not resolve here at all), loopback when sent
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, 1, 6, "", ("127.0.0.1", 443))])
    delivery = webhooks.webhook_deliver(delivery_id=WebhookDelivery.objects.get().pk)
    assert delivery.status == DeliveryStatus.PENDING and delivery.last_status_code is None
    assert "private, loopback or reserved" in delivery.last_error
    assert receiver.received == []


def test_a_sender_that_died_mid_delivery_leaves_it_due_again_with_the_same_id(receiver):
    endpoint_for(receiver)
    event = emit()
    claimed = webhooks._claim_many([WebhookDelivery.objects.get().pk], force=False)  # then the worker was killed
    assert len(claimed) == 1 and webhooks.webhook_sweep()["delivered"] == 0  # the lease holds meanwhile
    WebhookDelivery.objects.update(next_attempt_at=timezone.now() - dt.timedelta(seconds=1))  # the lease ran out
    assert webhooks.webhook_sweep()["delivered"] == 1
    assert [r.headers["webhook-id"] for r in receiver.received] == [event.id]


def test_rotation_signs_with_both_secrets_for_a_day(receiver):
    endpoint, old = endpoint_for(receiver)
    endpoint, new = webhooks.webhook_endpoint_rotate(endpoint=endpoint, actor=StaffFactory(role="admin"))
    emit()
    webhooks.webhook_sweep()
    got = receiver.received[0]
    headers = {k.lower(): v for k, v in got.headers.items()}
    assert len(headers["webhook-signature"].split()) == 2
    assert verify(old, headers, got.body) and verify(new, headers, got.body)


def test_a_deleted_endpoint_is_sent_nothing_more(receiver):
    endpoint, _ = endpoint_for(receiver)
    emit()
    webhooks.webhook_endpoint_delete(endpoint=endpoint, actor=StaffFactory(role="admin"))
    assert webhooks.webhook_sweep() == {"delivered": 0, "pending": 0, "failed": 0}
    assert emit() is None and receiver.received == []


@pytest.fixture
def keep_alive_receiver(receiver):
    receiver.keep_alive = True
    receiver.stop()
    return receiver.start()


def test_one_endpoint_is_sent_its_events_in_order_over_one_kept_alive_connection(keep_alive_receiver):
    endpoint_for(keep_alive_receiver)
    events = [emit(transaction_id=f"t{n}") for n in range(3)]
    assert webhooks.webhook_sweep() == {"delivered": 3, "pending": 0, "failed": 0}
    assert [r.headers["webhook-id"] for r in keep_alive_receiver.received] == [e.id for e in events]
    assert len({r.client for r in keep_alive_receiver.received}) == 1


def test_an_events_deliveries_go_to_every_endpoint_in_one_batch(keep_alive_receiver):
    secrets = [endpoint_for(keep_alive_receiver)[1] for _ in range(3)]
    endpoint_for(keep_alive_receiver, WebhookEventType.USER_FROZEN)  # not subscribed: sent nothing
    event = emit()
    ids = list(WebhookDelivery.objects.filter(event=event).values_list("id", flat=True))
    attempted = webhooks.webhook_deliver_many(ids=ids)
    assert len(attempted) == 3 and {d.status for d in attempted} == {DeliveryStatus.DELIVERED}
    assert WebhookDelivery.objects.filter(status=DeliveryStatus.DELIVERED, attempts=1).count() == 3
    received = keep_alive_receiver.received
    assert len(received) == 3 and {r.headers["webhook-id"] for r in received} == {event.id}
    # each endpoint's own secret signs its copy
    for got in received:
        headers = {k.lower(): v for k, v in got.headers.items()}
        assert sum(verify(secret, headers, got.body) for secret in secrets) == 1
    assert webhooks.webhook_deliver_many(ids=ids) == []  # done: nothing is sent twice


@pytest.mark.django_db(transaction=True)  # as on a worker: the claim and the record commit on their own
def test_the_task_sends_a_quick_retry_itself(receiver, settings):
    from backoffice import background

    settings.TASKS_ASYNC = False  # without a broker the task's thread waits for the first pause
    endpoint_for(receiver)
    event = emit()
    receiver.answers = [500]
    [delivery_id] = [str(i) for i in WebhookDelivery.objects.values_list("id", flat=True)]
    background.webhook_deliver.apply(([delivery_id],), throw=True)
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.attempts == 2
    assert [r.headers["webhook-id"] for r in receiver.received] == [event.id, event.id]
    gap = (delivery.delivered_at - event.created_at).total_seconds()
    assert gap >= webhooks.pause_after(1).total_seconds()


def test_retries_are_handed_on_when_due_in_the_order_they_fall_due():
    import threading
    import time

    from backoffice.background import Later

    handed, done = [], threading.Event()

    def send(at, ids):
        handed.append((time.time(), at, ids))
        if len(handed) == 2:
            done.set()

    later = Later(send)
    now = time.time()
    later.add(now + 0.3, ["second"])
    later.add(now + 0.1, ["first"])
    assert done.wait(10)
    assert [ids for _t, _at, ids in handed] == [["first"], ["second"]]
    assert all(t >= at for t, at, _ids in handed)  # never before they are due


@pytest.mark.django_db(transaction=True)
def test_a_due_retry_is_sent_by_the_retry_thread_itself_and_a_later_one_handed_back(receiver, monkeypatch):
    from backoffice import background

    handed = []
    monkeypatch.setattr(background.retries_later, "add", lambda at, ids: handed.append((at, ids)))
    endpoint_for(receiver)
    event = emit()
    receiver.answers = [500, 500]
    [delivery_id] = [str(i) for i in WebhookDelivery.objects.values_list("id", flat=True)]
    webhooks.webhook_deliver_many(ids=[delivery_id])  # the first attempt: 500, due again half a second later

    def due_now():
        WebhookDelivery.objects.filter(pk=delivery_id).update(next_attempt_at=timezone.now())

    due_now()
    background._send_retries(0, [delivery_id])  # the second: 500 again, due in seconds: handed back
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.PENDING and delivery.attempts == 2
    assert [ids for _at, ids in handed] == [[delivery_id]]
    assert handed[0][0] == pytest.approx(delivery.next_attempt_at.timestamp(), abs=0.2)
    due_now()
    background._send_retries(0, [delivery_id])
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.attempts == 3 and len(handed) == 1
    assert [r.headers["webhook-id"] for r in receiver.received] == [event.id] * 3


def test_retries_due_together_go_in_one_send():
    import threading
    import time

    from backoffice.background import Later

    sent, done = [], threading.Event()

    def send(at, ids):
        sent.append(ids)
        done.set()

    later = Later(send)
    with later._ready:  # all three are queued before the thread looks (the lock is re-entrant)
        later.add(time.time() - 0.5, ["b"])
        later.add(time.time() - 1, ["a"])
        later.add(time.time() - 0.1, ["c"])
    assert done.wait(10)
    assert sent == [["a", "b", "c"]]
