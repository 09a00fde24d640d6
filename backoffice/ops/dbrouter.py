"""Reads of lists and reports from a PostgreSQL replica (``DATABASE_REPLICA_URL``), everything else on the primary.

Installed only when a replica is configured (``backoffice.settings.database``). A query goes to the replica
when all of these hold, else to the primary:

* the request is a GET or HEAD under /api/ (lists, details, reports: ``ReplicaRoutingMiddleware`` opens the
  window); writes, and the reads a write makes first (a PUT reads the row it changes), never leave the
  primary, and neither does anything outside a request (tasks, commands, the admin site);
* nothing was written yet in this request (a read right after a write sees the write);
* no transaction is open on the primary (reads inside one are part of it);
* the principal making the request wrote nothing in the last ``DATABASE_REPLICA_PIN_SECONDS``: a client that
  changes something and reads it back in its next request must not see the replica's older copy while the
  replica catches up. The pin lives in the cache, so it holds across every app server (Redis).
"""

import contextvars
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connections

from backoffice.ops import context

PRIMARY, REPLICA = "default", "replica"
_PIN = "dbpin:"


@dataclass
class _Window:
    open: bool = False
    wrote: bool = False
    pinned: bool | None = None  # asked of the cache once per request, when the first read needs to know


_window: contextvars.ContextVar[_Window | None] = contextvars.ContextVar("replica_window", default=None)


def _pinned(window: _Window) -> bool:
    if window.pinned is None:
        principal = context.principal.get()
        if principal is None:
            return False  # not known yet (the token's own check reads first): ask again once it is
        try:
            window.pinned = bool(principal and cache.get(_PIN + principal))
        except Exception:  # the cache is down: the primary is always right
            window.pinned = True
    return window.pinned


class ReplicaRouter:
    def db_for_read(self, model, **hints):
        window = _window.get()
        if window is None or not window.open or window.wrote:
            return PRIMARY
        if connections[PRIMARY].in_atomic_block or _pinned(window):
            return PRIMARY
        return REPLICA

    def db_for_write(self, model, **hints):
        window = _window.get()
        if window is not None and not window.wrote:
            window.wrote = True
            principal = context.principal.get()
            if principal:
                try:
                    cache.set(_PIN + principal, 1, settings.DATABASE_REPLICA_PIN_SECONDS)
                except Exception:
                    pass  # the pin is a courtesy; the write itself must not fail for it
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        return True  # one database seen twice

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == PRIMARY


class ReplicaRoutingMiddleware:
    """Opens the replica window for GET and HEAD under /api/ (a no-op without a replica)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if REPLICA not in settings.DATABASES:
            return self.get_response(request)
        readonly = request.method in ("GET", "HEAD") and request.path.startswith("/api/")
        token = _window.set(_Window(open=readonly))
        try:
            return self.get_response(request)
        finally:
            _window.reset(token)
