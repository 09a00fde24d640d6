"""Events to the payment platform: endpoints, the outbox, and at-least-once delivery (docs/webhooks.md).

* ``webhook_emit`` writes an event and one delivery per subscribed, active endpoint inside the caller's
  transaction: a committed change always has its deliveries, a rolled-back one has none. After the commit the
  deliveries are handed to the sender (one Celery task for the event's deliveries, or a thread of this process
  without a broker).
* ``webhook_deliver_many`` claims the due deliveries among some ids (row locks, skip locked; one statement to read,
  one to claim), pushes their next attempt past the time the attempts can take (a sender that dies mid-way leaves
  them due again soon, and they are sent again with the same ``webhook-id``), sends them outside any transaction,
  different endpoints side by side over kept-alive connections, and records the answers in one statement: 2xx
  DELIVERED; otherwise the next attempt after a growing pause, FAILED after ``WEBHOOK_MAX_ATTEMPTS``.
  ``webhook_deliver`` is the same for one delivery.
* ``webhook_sweep`` (beat, and ``manage.py deliver_webhooks``) sends what is due, oldest event first.
"""

import datetime as dt
import json
import logging
import os
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import urllib3
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from backoffice import events, sealing
from backoffice.choices import DeliveryStatus, WebhookEventType
from backoffice.errors import Conflict, ValidationFailed
from backoffice.jsonkeys import camel_keys
from backoffice.models import WebhookDelivery, WebhookEndpoint, WebhookEvent
from backoffice.ops.metrics import WEBHOOK_DELIVERIES, WEBHOOK_DELIVERY_SECONDS
from backoffice.services import webhook_http
from backoffice.toolkit import Actor

logger = logging.getLogger("backoffice.webhooks")

# Pauses after a failed attempt, in seconds: a second try half a second later (most failures are a receiver's
# moment, and Standard Webhooks senders retry at once), then growing, the 8th attempt about a day after the first.
# More attempts than pauses repeat the last.
PAUSES = (0.5, 5, 5 * 60, 30 * 60, 2 * 3600, 6 * 3600, 15 * 3600)
# Each pause is lengthened by up to this fraction at random, so deliveries that failed together (a receiver's bad
# moment) do not all come back at the same instant, and a retry does not fall in step with a periodic failure.
JITTER = 0.2
# A retry due this soon is sent by the sender that made the attempt (a task with a countdown, or the thread
# waits); a later one by beat's sweep.
SOON = dt.timedelta(seconds=60)
SECRET_OVERLAP = dt.timedelta(days=1)
# what the secrets are sealed for (backoffice.sealing derives one key per purpose)
SECRET_PURPOSE = "webhook-secret"
EVENT_TYPES = frozenset(WebhookEventType.values)

# Who sends deliveries once their transaction commits: set by the foundation's ready() (a task per event, or a
# thread); None in a process that never sends (they wait for the sweep).
_sender: Callable[[list[str]], None] | None = None


def set_sender(sender: Callable[[list[str]], None] | None) -> None:
    global _sender
    _sender = sender


def pause_after(attempts: int) -> dt.timedelta:
    return dt.timedelta(seconds=PAUSES[min(attempts, len(PAUSES)) - 1])


# -- endpoints ----------------------------------------------------------------------------------------------------


def _clean(url: str, event_types: Iterable[str]) -> tuple[str, list[str]]:
    errors: dict[str, list[str]] = {}
    url = (url or "").strip()
    try:
        webhook_http.check_url(url)
    except webhook_http.UnsafeTarget as exc:
        errors["url"] = [str(exc)]
    types = list(dict.fromkeys(event_types or []))
    unknown = [t for t in types if t not in EVENT_TYPES]
    if not types:
        errors["events"] = ["Name at least one event type."]
    elif unknown:
        errors["events"] = [
            f"Unknown event type(s): {', '.join(map(str, unknown))}; known: {', '.join(sorted(EVENT_TYPES))}."
        ]
    if errors:
        raise ValidationFailed("Validation error", details=errors)
    return url, types


@transaction.atomic
def webhook_endpoint_create(
    *, actor: Actor, url: str, event_types: list[str], description: str = ""
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint and its secret (returned once; only the endpoint's row keeps it, for signing)."""
    url, types = _clean(url, event_types)
    secret = webhook_http.new_secret()
    endpoint = WebhookEndpoint.objects.create(
        url=url,
        events=types,
        description=(description or "").strip()[:500],
        secret_sealed=sealing.seal(secret, purpose=SECRET_PURPOSE),
        created_by=actor,
    )
    events.webhook_endpoint_created(actor=actor, endpoint=endpoint)
    return endpoint, secret


@transaction.atomic
def webhook_endpoint_update(
    *, endpoint: WebhookEndpoint, actor: Actor, url: str, event_types: list[str], description: str, is_active: bool
) -> WebhookEndpoint:
    url, types = _clean(url, event_types)
    locked = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    if locked.deleted_at:
        raise Conflict("The endpoint was deleted")
    before = {
        "url": locked.url,
        "events": locked.events,
        "description": locked.description,
        "is_active": locked.is_active,
    }
    locked.url, locked.events, locked.description, locked.is_active = url, types, description.strip()[:500], is_active
    locked.save(update_fields=["url", "events", "description", "is_active"])
    after = {
        "url": locked.url,
        "events": locked.events,
        "description": locked.description,
        "is_active": locked.is_active,
    }
    diff = {k: {"from": before[k], "to": after[k]} for k in before if before[k] != after[k]}
    if diff:
        events.webhook_endpoint_updated(actor=actor, endpoint=locked, changes=diff)
    return locked


@transaction.atomic
def webhook_endpoint_delete(*, endpoint: WebhookEndpoint, actor: Actor) -> None:
    """No more deliveries to it (the pending ones included); its rows stay for the record."""
    locked = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    if locked.deleted_at:
        return
    locked.deleted_at, locked.is_active = timezone.now(), False
    locked.save(update_fields=["deleted_at", "is_active"])
    locked.deliveries.filter(status=DeliveryStatus.PENDING).update(
        status=DeliveryStatus.FAILED, last_error="The endpoint was deleted", next_attempt_at=None
    )
    events.webhook_endpoint_deleted(actor=actor, endpoint=locked)


@transaction.atomic
def webhook_endpoint_rotate(*, endpoint: WebhookEndpoint, actor: Actor) -> tuple[WebhookEndpoint, str]:
    """A new secret, returned once; the old one keeps being signed with for a day, so the receiver can switch."""
    locked = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    if locked.deleted_at:
        raise Conflict("The endpoint was deleted")
    secret = webhook_http.new_secret()
    locked.previous_secret_sealed = locked.secret_sealed
    locked.previous_secret_expires_at = timezone.now() + SECRET_OVERLAP
    locked.secret_sealed = sealing.seal(secret, purpose=SECRET_PURPOSE)
    locked.save(update_fields=["secret_sealed", "previous_secret_sealed", "previous_secret_expires_at"])
    events.webhook_endpoint_rotated(actor=actor, endpoint=locked)
    return locked, secret


# -- the outbox ---------------------------------------------------------------------------------------------------


def webhook_emit(*, event_type: str, data: dict) -> WebhookEvent | None:
    """Record an event for every active endpoint subscribed to ``event_type``, in the caller's transaction; the
    deliveries go out after it commits. None when no endpoint wants it (nothing is written).

    ``data`` is in domain names (snake_case, as every stored JSON is); the platform is sent camelCase."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown webhook event type {event_type!r}")
    endpoints = [
        e
        for e in WebhookEndpoint.objects.filter(is_active=True, deleted_at__isnull=True).only("id", "events")
        if event_type in (e.events or [])
    ]
    if not endpoints:
        return None
    with transaction.atomic():
        event = WebhookEvent.objects.create(id=f"evt_{uuid.uuid4().hex}", type=event_type, data=data)
        deliveries = WebhookDelivery.objects.bulk_create(
            [WebhookDelivery(endpoint_id=e.pk, event=event, next_attempt_at=event.created_at) for e in endpoints]
        )
        ids = [str(d.pk) for d in deliveries]
        transaction.on_commit(lambda: _hand_over(ids))
    return event


def _hand_over(ids: list[str]) -> None:
    if _sender is None:
        return
    try:
        _sender(ids)
    except Exception:  # the sweep sends them anyway: a broker down must not fail the committed change
        logger.exception("could not hand %s webhook deliveries to the sender; the sweep will send them", len(ids))


def payload(event: WebhookEvent) -> bytes:
    body = {
        "id": event.id,
        "type": event.type,
        "createdAt": event.created_at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
        "data": camel_keys(event.data),
    }
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def signing_secret(endpoint: WebhookEndpoint) -> str:
    """The endpoint's current secret, opened (``sealing.Unsealable`` when no configured key opens it)."""
    return sealing.unseal(endpoint.secret_sealed, purpose=SECRET_PURPOSE)


@transaction.atomic
def webhook_secrets_reseal() -> int:
    """Seal every endpoint's secrets again under the current ``SECRET_KEY`` (after a rotation that kept the old key
    in ``SECRET_KEY_FALLBACKS``); how many endpoints changed. A secret no key opens is left as it is."""
    changed = 0
    for endpoint in WebhookEndpoint.objects.select_for_update().only("id", "secret_sealed", "previous_secret_sealed"):
        fields = []
        for name in ("secret_sealed", "previous_secret_sealed"):
            value = getattr(endpoint, name)
            if not value or sealing.is_current(value, purpose=SECRET_PURPOSE):
                continue
            try:
                plain = sealing.unseal(value, purpose=SECRET_PURPOSE)
            except sealing.Unsealable:
                logger.error("webhook endpoint %s: its %s opens with no configured key", endpoint.pk, name)
                continue
            setattr(endpoint, name, sealing.seal(plain, purpose=SECRET_PURPOSE))
            fields.append(name)
        if fields:
            endpoint.save(update_fields=fields)
            changed += 1
    return changed


def signature_headers(endpoint: WebhookEndpoint, event: WebhookEvent, body: bytes, now: float | None = None) -> dict:
    timestamp = int(now if now is not None else time.time())
    signatures = [webhook_http.sign(signing_secret(endpoint), event.id, timestamp, body)]
    if (
        endpoint.previous_secret_sealed
        and endpoint.previous_secret_expires_at
        and endpoint.previous_secret_expires_at > timezone.now()
    ):
        previous = sealing.unseal(endpoint.previous_secret_sealed, purpose=SECRET_PURPOSE)
        signatures.append(webhook_http.sign(previous, event.id, timestamp, body))
    return {
        "Content-Type": "application/json",
        "User-Agent": "Vikela-Webhooks/1",
        "webhook-id": event.id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(signatures),
    }


# -- sending ------------------------------------------------------------------------------------------------------

# Deliveries to different endpoints go out side by side (one slow receiver does not hold up the others); one
# endpoint's go one after another, oldest event first. Threads only send: the database is read and written by the
# caller's thread, in one claim and one record per batch.
SEND_THREADS = webhook_http.POOL_CONNECTIONS
# The sweep's batch: its lease (below) grows with the longest run one endpoint has in it, so it is kept small.
SWEEP_BATCH = 100
_executor: ThreadPoolExecutor | None = None
_executor_pid = 0
_executor_lock = threading.Lock()


def _threads() -> ThreadPoolExecutor:
    global _executor, _executor_pid
    with _executor_lock:
        if _executor is None or _executor_pid != os.getpid():  # a forked worker starts its own
            _executor, _executor_pid = ThreadPoolExecutor(SEND_THREADS, thread_name_prefix="webhook"), os.getpid()
        return _executor


def _claim_many(ids: Iterable, *, force: bool) -> list[WebhookDelivery]:
    """Take the due deliveries among ``ids`` for one attempt each (``force``: whatever their state), skipping any
    another sender holds, oldest event first. Three statements however many there are."""
    now = timezone.now()
    # found by their keys alone and judged here: a locked row is read as it is now, and the state in the WHERE
    # clause led the planner to the (much updated) due index instead of the primary key
    rows = WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",)).select_related("endpoint", "event")
    alone = not connection.in_atomic_block
    with transaction.atomic():
        if alone:
            _commit_without_waiting_for_disk()
        claimed = [
            d
            for d in rows.filter(pk__in=list(ids))
            if d.endpoint.deleted_at is None
            and (force or (d.status == DeliveryStatus.PENDING and d.next_attempt_at and d.next_attempt_at <= now))
        ]
        if not claimed:
            return []
        claimed.sort(key=lambda d: (d.event.created_at, str(d.pk)))
        # the lease: a sender that dies before it records the answers leaves them due again after this; one
        # endpoint's deliveries go one after another, so the lease covers the longest such run
        run = max(Counter(d.endpoint_id for d in claimed).values())
        lease = now + dt.timedelta(seconds=settings.WEBHOOK_TIMEOUT_SECONDS * (run + 1) + 30)
        WebhookDelivery.objects.filter(pk__in=[d.pk for d in claimed]).update(
            status=DeliveryStatus.PENDING, next_attempt_at=lease, attempts=F("attempts") + 1
        )
    for delivery in claimed:
        delivery.status, delivery.next_attempt_at, delivery.attempts = (
            DeliveryStatus.PENDING,
            lease,
            delivery.attempts + 1,
        )
    return claimed


@dataclass
class _Answer:
    code: int | None
    error: str
    at: dt.datetime


def _send(delivery: WebhookDelivery, body: bytes) -> _Answer:
    """One attempt, no database: the endpoint's address is resolved and checked now, then the signed POST of
    ``body`` (the event's payload)."""
    endpoint, event = delivery.endpoint, delivery.event
    code, error = None, ""
    try:
        target = webhook_http.resolve(endpoint.url)
        code, answer = webhook_http.post(
            target, body, signature_headers(endpoint, event, body), settings.WEBHOOK_TIMEOUT_SECONDS
        )
        if not 200 <= code < 300:
            error = f"HTTP {code}: {answer[:200]}".strip()
    except webhook_http.UnsafeTarget as exc:
        error = str(exc)
    except sealing.Unsealable as exc:
        error = f"not signed: the endpoint's secret cannot be opened: {exc}"
    except urllib3.exceptions.HTTPError as exc:
        error = f"no answer: {exc.__class__.__name__}"
    except Exception as exc:  # one odd endpoint must not leave the batch's other answers unrecorded
        logger.exception("webhook delivery %s could not be sent", delivery.pk)
        error = f"not sent: {exc.__class__.__name__}"
    return _Answer(code, error, timezone.now())


def _send_all(claimed: list[WebhookDelivery]) -> list[tuple[WebhookDelivery, _Answer]]:
    bodies: dict[str, bytes] = {}  # one serialisation per event, however many endpoints it goes to
    by_endpoint: dict = {}
    for delivery in claimed:
        if delivery.event_id not in bodies:
            bodies[delivery.event_id] = payload(delivery.event)
        by_endpoint.setdefault(delivery.endpoint_id, []).append(delivery)

    def in_turn(deliveries: list[WebhookDelivery]) -> list[_Answer]:
        return [_send(d, bodies[d.event_id]) for d in deliveries]

    runs = list(by_endpoint.values())
    if len(runs) == 1:
        answers = [in_turn(runs[0])]
    else:
        answers = list(_threads().map(in_turn, runs))
    return [pair for run, got in zip(runs, answers, strict=True) for pair in zip(run, got, strict=True)]


def _record(results: list[tuple[WebhookDelivery, _Answer]]) -> None:
    """Write every answer in one statement: 2xx DELIVERED; otherwise the next attempt after a growing pause, or
    FAILED after the last one."""
    for delivery, answer in results:
        delivery.last_status_code, delivery.last_error = answer.code, answer.error[:500]
        if not answer.error:
            delivery.status, delivery.delivered_at, delivery.next_attempt_at = DeliveryStatus.DELIVERED, answer.at, None
            outcome = "delivered"
            WEBHOOK_DELIVERY_SECONDS.observe((answer.at - delivery.event.created_at).total_seconds())
        elif delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
            delivery.status, delivery.next_attempt_at = DeliveryStatus.FAILED, None
            outcome = "failed"
            logger.warning(
                "webhook delivery %s failed for good after %s attempts: %s",
                delivery.pk,
                delivery.attempts,
                answer.error,
            )
        else:
            delivery.status, delivery.next_attempt_at = (
                DeliveryStatus.PENDING,
                answer.at + pause_after(delivery.attempts) * (1 + random.random() * JITTER),
            )
            outcome = "retry"
        WEBHOOK_DELIVERIES.labels(outcome).inc()
    _write_answers([d for d, _ in results])


_ANSWER_COLUMNS = ("status", "next_attempt_at", "delivered_at", "last_status_code", "last_error")


def _write_answers(deliveries: list[WebhookDelivery]) -> None:
    """One UPDATE from a VALUES list on PostgreSQL: the ORM's bulk_update builds a CASE per row and column, which
    cost more CPU than the sending itself (kept for SQLite, the development database)."""
    if connection.vendor != "postgresql":
        WebhookDelivery.objects.bulk_update(deliveries, list(_ANSWER_COLUMNS))
        return
    table = connection.ops.quote_name(WebhookDelivery._meta.db_table)
    columns = [WebhookDelivery._meta.get_field(name).column for name in _ANSWER_COLUMNS]
    assignments = ", ".join(f"{connection.ops.quote_name(c)} = v.{c}" for c in columns)
    row = "(%s::uuid, %s, %s::timestamptz, %s::timestamptz, %s::smallint, %s)"
    params = [
        value
        for d in deliveries
        for value in (d.pk, d.status, d.next_attempt_at, d.delivered_at, d.last_status_code, d.last_error)
    ]
    prefix = "" if connection.in_atomic_block else f"{_NO_DISK_WAIT}; "
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"{prefix}UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row] * len(deliveries))}) "
            f"AS v(id, {', '.join(columns)}) WHERE {table}.id = v.id",
            params,
        )


# The claim and the record are bookkeeping the sender can lose without breaking at-least-once: a claim or an answer
# that a PostgreSQL crash takes back (the last moment's commits, never a torn one) leaves the delivery due again, and
# it is sent again with the same id. So their commits do not wait for the disk, which was most of a batch's time on a
# busy machine. The event and its rows (the outbox) are written in the caller's transaction, as durable as the change;
# inside someone else's transaction (a resend from a page) nothing is changed, since the setting would cover it all.
_NO_DISK_WAIT = "SET LOCAL synchronous_commit TO OFF"


def _commit_without_waiting_for_disk() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_NO_DISK_WAIT)


def webhook_deliver_many(*, ids: Iterable, force: bool = False) -> list[WebhookDelivery]:
    """One attempt at each of the deliveries among ``ids`` that is due (``force``: now, whatever its state: the
    resend). Returns the deliveries that were attempted, after their attempt."""
    claimed = _claim_many(ids, force=force)
    if not claimed:
        return []
    results = _send_all(claimed)
    _record(results)
    return [delivery for delivery, _ in results]


def webhook_deliver(*, delivery_id, force: bool = False) -> WebhookDelivery | None:
    """One attempt at a delivery that is due (``force``: now, whatever its state: the resend). Returns the
    delivery after the attempt, or None when there was nothing to send."""
    attempted = webhook_deliver_many(ids=[delivery_id], force=force)
    return attempted[0] if attempted else None


def webhook_retry(*, delivery: WebhookDelivery, actor: Actor) -> WebhookDelivery:
    """Send a delivery again now (the resend): a FAILED one gets a fresh round of attempts after this one."""
    if delivery.endpoint.deleted_at:
        raise Conflict("The endpoint was deleted")
    if delivery.status == DeliveryStatus.FAILED:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(attempts=0)
    events.webhook_delivery_resent(actor=actor, delivery=delivery)
    return webhook_deliver(delivery_id=delivery.pk, force=True) or WebhookDelivery.objects.get(pk=delivery.pk)


def webhook_due(*, limit: int = 500) -> list:
    """The ids of deliveries due now, oldest event first (so one endpoint's events go in the order they happened)."""
    return list(
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.PENDING, next_attempt_at__lte=timezone.now(), endpoint__deleted_at__isnull=True
        )
        .order_by("event__created_at", "id")
        .values_list("id", flat=True)[:limit]
    )


def webhook_sweep(*, limit: int = 500) -> dict[str, int]:
    """Send every delivery that is due (at most ``limit``), in batches; counts by outcome."""
    counts = {"delivered": 0, "pending": 0, "failed": 0}
    due = webhook_due(limit=limit)
    for start in range(0, len(due), SWEEP_BATCH):
        for delivery in webhook_deliver_many(ids=due[start : start + SWEEP_BATCH]):
            counts[delivery.status.lower()] += 1
    return counts
