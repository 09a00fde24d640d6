"""The client address of the request being served, for rate limits and the audit log."""

import contextvars
import ipaddress

from django.conf import settings

_client_ip: contextvars.ContextVar[str | None] = contextvars.ContextVar("client_ip", default=None)


def client_ip(request) -> str:
    """REMOTE_ADDR, or the address TRUSTED_PROXY_COUNT hops back in X-Forwarded-For.

    With no trusted proxy the header is ignored: a client can write anything
    there, and must not get a fresh rate-limit bucket by doing so.
    """
    remote = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    hops = settings.TRUSTED_PROXY_COUNT
    if hops:
        forwarded = [p.strip() for p in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if p.strip()]
        if len(forwarded) >= hops:
            candidate = forwarded[-hops]
            try:
                ipaddress.ip_address(candidate)
                return candidate
            except ValueError:
                pass
    return remote


def set_current_ip(ip: str | None):
    return _client_ip.set(ip)


def reset_current_ip(token) -> None:
    _client_ip.reset(token)


def current_ip() -> str | None:
    return _client_ip.get()
