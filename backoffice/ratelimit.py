"""Rate-limit groups of the contract, counted with django-ratelimit in the shared cache.

``standard`` is per principal (per IP when anonymous), ``auth`` per IP on
every /auth/ endpoint, ``bulk`` per principal on bulk uploads. A request
counts against exactly one group, and its response reports that group.
"""

import time
from dataclasses import dataclass

from django.conf import settings
from django_ratelimit.core import _split_rate, get_usage

from backoffice import tokens
from backoffice.request_context import client_ip

API_PREFIX = "/api/"
AUTH_PREFIX = "/api/v1/auth/"
BULK_PATHS = ("/api/v1/admin/aml/pep/bulk",)


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
    return "standard"


def _rate(group: str) -> str:
    return {"auth": settings.RATE_LIMIT_AUTH, "bulk": settings.RATE_LIMIT_BULK}.get(group, settings.RATE_LIMIT_STANDARD)


def _key(group: str, request) -> str:
    if group != "auth":
        header = request.META.get("HTTP_AUTHORIZATION", "")
        parts = header.split()
        if len(parts) == 2 and parts[0] == "Bearer":
            principal = tokens.peek_principal(parts[1])
            if principal:
                return "principal:{}:{}".format(*principal)
    return "ip:" + client_ip(request)


def hit(request) -> Usage | None:
    """Count this request against its group; None when rate limiting is off."""
    group = group_for(request.path)
    rate = _rate(group)
    usage = get_usage(request, group=f"api.{group}", key=_key, rate=rate, increment=True)
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
