"""The foundation's own background work: the audit chain's watch and daily checkpoint (docs/audit-chain.md), and
the webhooks to the payment platform (docs/webhooks.md).

Apart from ``backoffice.tasks`` (the machinery every task shares), which Celery imports before Django has set up
its apps: this module imports models through the services, so ``BackofficeConfig.ready()`` imports it.
"""

import datetime as dt
import heapq
import itertools
import logging
import os
import threading
import time

from celery import shared_task
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from backoffice.choices import DeliveryStatus
from backoffice.services import approvals, audit_verify, webhooks
from backoffice.tasks import VikelaTask, dispatch

logger = logging.getLogger("backoffice.tasks")


@shared_task(base=VikelaTask, name="backoffice.audit_watch")
def audit_watch() -> dict:
    """Verify the audit entries written since the last watch; a break is logged CRITICAL and shown at once."""
    return audit_verify.audit_watch().as_json()


@shared_task(base=VikelaTask, name="backoffice.audit_checkpoint")
def audit_checkpoint() -> str | None:
    """Sign the chain's head into ``AUDIT_CHECKPOINT_DIR`` (daily); nothing to do where it or the key is unset."""
    if not (settings.AUDIT_SIGNING_KEY and settings.AUDIT_CHECKPOINT_DIR):
        logger.info("audit checkpoint skipped: AUDIT_SIGNING_KEY or AUDIT_CHECKPOINT_DIR is not set")
        return None
    # once a day the whole chain is walked (the watch walks only the newest entries), and a broken chain is never
    # signed: a checkpoint vouches for everything before it
    walk = audit_verify.audit_verify()
    audit_verify.audit_record_outcome(walk)
    if not walk.intact:
        return None
    path = audit_verify.audit_checkpoint_write(folder=settings.AUDIT_CHECKPOINT_DIR)
    logger.info("audit checkpoint written to %s", path)
    return str(path)


# -- webhooks to the payment platform (docs/webhooks.md) -------------------------------------------------------


@shared_task(bind=True, base=VikelaTask, name="backoffice.webhook_deliver")
def webhook_deliver(self, delivery_ids: list[str] | str, not_before: float | None = None) -> dict[str, str]:
    """One attempt at each due delivery among ``delivery_ids`` (one committed event's, or retries due together),
    different endpoints side by side. Retries due soon are sent again from here (on a worker, this process hands
    them back to the broker when they are due; without a broker, this thread waits); later ones by beat's sweep."""
    ids = [delivery_ids] if isinstance(delivery_ids, str) else list(delivery_ids)  # a message from before batches
    # a retry's message says when its deliveries are due: one that ran early would find them not due and leave
    # them to the sweep
    start = dt.datetime.fromtimestamp(not_before, dt.UTC) if not_before else timezone.now()
    due = dict.fromkeys(ids, start)
    outcome: dict[str, str] = {}
    while due:
        wait = (min(due.values()) - timezone.now()).total_seconds()
        if wait > 0:
            time.sleep(wait)
        now = timezone.now()
        ready = [i for i, at in due.items() if at <= now]
        for delivery_id in ready:
            del due[delivery_id]
        for delivery in webhooks.webhook_deliver_many(ids=ready):
            outcome[str(delivery.pk)] = delivery.status
            at = delivery.next_attempt_at
            if delivery.status == DeliveryStatus.PENDING and at is not None and at - now <= webhooks.SOON:
                due[str(delivery.pk)] = at
        if due and settings.TASKS_ASYNC:
            # a worker does not wait: a thread of this process sends the retries when they are due
            _retry_later(due)
            break
    return outcome


def _retry_later(due: dict[str, dt.datetime]) -> None:
    """Hand deliveries to this process's retry thread, those due at the same moment together (not as messages
    with a countdown: a worker holds those from the moment they arrive, and with one message per process
    prefetched they kept first attempts waiting)."""
    together: dict[dt.datetime, list[str]] = {}
    for delivery_id, at in due.items():
        together.setdefault(at.replace(microsecond=at.microsecond // 100_000 * 100_000), []).append(delivery_id)
    for batch in together.values():
        retries_later.add(max(due[i] for i in batch).timestamp(), batch)


class Later:
    """Batches of deliveries to hand to ``send`` when they are due, from a thread of this process. Lost with the
    process (a worker stopped or killed): the deliveries stay due in the database, and the sweep sends them."""

    def __init__(self, send):
        self._send = send
        self._heap: list[tuple[float, int, list[str]]] = []
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._count = itertools.count()

    def add(self, at: float, ids: list[str]) -> None:
        with self._ready:
            if self._pid != os.getpid() or self._thread is None or not self._thread.is_alive():
                if self._pid != os.getpid():  # a forked worker does not inherit its parent's thread or batches
                    self._heap, self._pid = [], os.getpid()
                self._thread = threading.Thread(target=self._run, name="webhook retries", daemon=True)
                self._thread.start()
            heapq.heappush(self._heap, (at, next(self._count), ids))
            self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._heap or self._heap[0][0] > time.time():
                    self._ready.wait(self._heap[0][0] - time.time() if self._heap else None)
                # every batch that is due by now goes in one send (they piled up while the last one was sent)
                at, _n, ids = heapq.heappop(self._heap)
                ids = list(ids)
                while self._heap and self._heap[0][0] <= time.time():
                    at, _n, more = heapq.heappop(self._heap)
                    ids.extend(more)
            try:
                self._send(at, ids)
            except Exception:  # the database is away: the sweep sends them
                logger.exception("could not send %s webhook retries; the sweep will", len(ids))


def _send_retries(at: float, ids: list[str]) -> None:
    """Send retries from the retry thread itself. Sent back to the broker as tasks, nearly every retry was a task
    of its own (failures are spread out, and their pauses jittered), and with one receiver failing one call in
    five those tasks cost the workers as much as every event's first attempts (bench/webhooks.py)."""
    close_old_connections()  # this thread keeps its connection between sends: drop it if it died meanwhile
    try:
        due: dict[str, dt.datetime] = {}
        for delivery in webhooks.webhook_deliver_many(ids=ids):
            at_next = delivery.next_attempt_at
            if delivery.status == DeliveryStatus.PENDING and at_next and at_next - timezone.now() <= webhooks.SOON:
                due[str(delivery.pk)] = at_next
        if due:
            _retry_later(due)
    finally:
        close_old_connections()


retries_later = Later(_send_retries)


@shared_task(base=VikelaTask, name="backoffice.webhook_sweep")
def webhook_sweep() -> dict:
    """Send the deliveries that are due: retries, and any whose message was lost."""
    return webhooks.webhook_sweep()


def send_webhook_deliveries(ids: list[str]) -> None:
    """The outbox's sender after a commit: one task for the event's deliveries (without a broker, a thread of this
    process), which sends them to their endpoints side by side."""
    dispatch(webhook_deliver, args=(ids,), background=True)


# -- dual control (docs/dual-control.md) ---------------------------------------------------------------------------


@shared_task(base=VikelaTask, name="backoffice.approvals_expire")
def approvals_expire() -> int:
    """Lapse the dual-control requests nobody decided in time (the queue also does it before each read)."""
    return approvals.approvals_expire()
