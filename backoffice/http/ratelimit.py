"""Rate-limit groups of the contract, counted with django-ratelimit in the shared cache.

``standard`` is per principal (per IP when anonymous), ``auth`` per IP on
every /auth/ endpoint, ``bulk`` per principal on bulk uploads. A request
counts against exactly one group, and its response reports that group.

When the cache cannot be reached, ``RATELIMIT_FAIL_OPEN`` decides: serve the
request uncounted (the default: an outage of the cache must not become an
outage of the API) or refuse it with 503. Either way the failure is counted
(``backoffice.ops.cache_guard.counter_failures``) and logged under the stable name
``ratelimit.cache_unavailable`` for an operator's alerting.
"""

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django_ratelimit.core import ALL, EXPIRATION_FUDGE, _get_window, _make_cache_key, _split_rate, get_usage

from backoffice.api.service_keys import request_service_key
from backoffice.auth import tokens
from backoffice.ops.cache_guard import guarded
from backoffice.ops.request_context import client_ip

AUTH_PREFIX = "/api/v1/auth/"
BULK_PATHS = ("/api/v1/admin/aml/pep/bulk",)
# the payment platform's intake and dry run: their own group, counted per service key (or per principal)
TRANSACTION_PATHS = ("/api/v1/admin/aml/transactions", "/api/v1/admin/aml/transactions/dry-run")


@dataclass(frozen=True)
class Usage:
    limit: int
    remaining: int
    reset: int
    limited: bool

    @property
    def retry_after(self) -> int:
        return max(0, min(self.reset - int(time.time()), 3600))


def group_for(path: str) -> str:
    if path.startswith(AUTH_PREFIX):
        return "auth"
    if path.rstrip("/") in BULK_PATHS:
        return "bulk"
    if path.rstrip("/") in TRANSACTION_PATHS:
        return "transactions"
    return "standard"


def _rate(group: str) -> str:
    return {
        "auth": settings.RATE_LIMIT_AUTH,
        "bulk": settings.RATE_LIMIT_BULK,
        "transactions": settings.RATE_LIMIT_TRANSACTIONS,
    }.get(group, settings.RATE_LIMIT_STANDARD)


def _key(group: str, request) -> str:
    if request.META.get("HTTP_X_API_KEY") and group_for(request.path) == "transactions":
        # only a verified key spends its own budget (its prefix, never the secret, names the counter): the
        # prefix is public, and keys invented around it would lock the real one out. A failed key is counted
        # against the address that sent it, below.
        service_key = request_service_key(request)
        if service_key is not None:
            return "service-key:" + service_key.prefix
        return "ip:" + client_ip(request)
    if group != "auth":
        header = request.META.get("HTTP_AUTHORIZATION", "")
        parts = header.split()
        if len(parts) == 2 and parts[0] == "Bearer":
            principal = tokens.peek_principal(parts[1])
            if principal:
                return "principal:{}:{}".format(*principal)
    return "ip:" + client_ip(request)


def _redis_usage(request, *, group: str, rate: str, cache: RedisCache) -> dict | None:
    """django-ratelimit's ``get_usage(increment=True)`` on a Redis cache, in one round trip instead of three.

    ``get_usage`` sends ``SET NX`` and, once the window's key exists (every request but the first of a
    window), ``EXISTS`` and ``INCRBY`` (Django's ``incr``): three round trips per API request, each a wait for
    the server thread under load. Here ``SET NX`` (0, the window's expiry) and ``INCR`` go in one pipeline:
    the same key, expiry and count (1 for the first request of a window, one more for each after).
    """
    if not settings.RATELIMIT_ENABLE:
        return None
    limit, period = _split_rate(rate)
    value = _key(group, request)
    window = _get_window(value, period)
    key = cache.make_and_validate_key(_make_cache_key(group, window, rate, value, ALL))
    pipe = cache._cache.get_client(key, write=True).pipeline(transaction=False)
    pipe.set(key, 0, ex=period + EXPIRATION_FUDGE, nx=True)
    pipe.incr(key)
    count = pipe.execute()[1]
    return {"count": count, "limit": limit, "should_limit": count > limit, "time_left": window - int(time.time())}


def hit(request) -> Usage | None:
    """Count this request against its group; None when rate limiting is off."""
    group = group_for(request.path)
    rate = _rate(group)
    cache = caches[settings.RATELIMIT_USE_CACHE]
    if isinstance(cache, RedisCache):
        count = lambda: _redis_usage(request, group=f"api.{group}", rate=rate, cache=cache)  # noqa: E731
    else:
        count = lambda: get_usage(request, group=f"api.{group}", key=_key, rate=rate, increment=True)  # noqa: E731
    usage = guarded(count, default=None)
    if usage is None:
        return None
    limit, _period = _split_rate(rate)
    count = usage["count"]
    return Usage(
        limit=limit,
        remaining=max(0, limit - count),
        reset=int(time.time()) + int(usage["time_left"]),
        limited=count > limit,
    )
