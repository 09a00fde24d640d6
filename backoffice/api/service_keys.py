"""The service key of a request's ``X-API-Key`` header, checked once per request.

The rate limiter needs to know whether a key is real before it counts the request (a key's prefix is
public, so an invented key must not spend the real key's budget), and the view's authentication needs the
same answer: the check (one query, one hash) is kept on the request for both.
"""

from backoffice.services.service_keys import service_key_check

HEADER = "HTTP_X_API_KEY"


def request_service_key(request):
    """The live ``ServiceKey`` the request's header names, or None (no header, unknown, malformed, revoked)."""
    request = getattr(request, "_request", request)  # DRF's Request wraps Django's: keep it on the latter
    raw = request.META.get(HEADER)
    checked = request.__dict__.get("_service_key_checked")
    if checked is not None and checked[0] == raw:
        return checked[1]
    row = service_key_check(raw.strip()) if raw else None
    request._service_key_checked = (raw, row)
    return row
