"""The outermost middleware: a request id on every response, one log event and one latency sample per request.

``X-Request-ID`` is the client's own when it is safe to log (``backoffice.ops.context.accepted_request_id``),
else a new one; it is set before anything else runs, so every log event of the request carries it, and
background tasks the request starts inherit it (``backoffice.tasks``). After the response: one ``request``
event (method, path without the query string, route template, status, duration, principal) and one sample
of ``vikela_http_request_duration_seconds`` labelled by the route *template*, never the path, so ids in
paths cannot grow the number of series.
"""

import logging
import re
import time

from django.conf import settings
from django.urls import Resolver404, resolve
from django.utils.functional import empty

from backoffice.auth import principals
from backoffice.ops import context, metrics, tracing

logger = logging.getLogger("backoffice.request")

UNMATCHED = "<unmatched>"
_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
_NAMED_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")
_CONVERTER = re.compile(r"<(?:\w+:)?(\w+)>")


def route_template(route: str) -> str:
    """``api/v1/verification/process/(?P<job_id>[^/]+)/?$`` -> ``/api/v1/verification/process/{job_id}``."""
    route = _NAMED_GROUP.sub(r"{\1}", route)
    route = _CONVERTER.sub(r"{\1}", route)
    for suffix in ("/?$", "$", r"\Z"):
        if route.endswith(suffix):
            route = route[: -len(suffix)]
            break
    return "/" + route.lstrip("^/")


def route_of(request) -> str:
    """The route template the request matched; ``<unmatched>`` for paths no route serves."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        if request.path.startswith(settings.STATIC_URL):
            return settings.STATIC_URL + "{path}"
        try:
            match = resolve(request.path_info)  # refused before routing (rate limit, hostile input)
        except Resolver404:
            return UNMATCHED
        except Exception:  # a path the resolver cannot even read (control characters)
            return UNMATCHED
    if match.view_name.endswith(".api_not_found") or not match.route:
        return UNMATCHED
    return route_template(match.route)


def principal_label(user) -> str | None:
    """``staff:<id>``, ``user:<id>``, ``vendor:<id>`` for a signed-in principal; None for anonymous."""
    if user is None or not getattr(user, "pk", None):
        return None
    for kind in principals.kinds():
        try:
            model = principals.get(kind).model_class
        except LookupError:
            continue
        if isinstance(user, model):
            return f"{kind}:{user.pk}"
    return None


def _principal_of(request) -> str | None:
    user = request.__dict__.get("user")
    wrapped = getattr(user, "_wrapped", None)
    if wrapped is empty:  # the admin's session user was never needed: do not query for the log's sake
        return None
    return principal_label(wrapped if wrapped is not None else user)


class RequestLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = context.accepted_request_id(request.META.get("HTTP_X_REQUEST_ID"))
        request.request_id = request_id
        started = time.perf_counter()
        with context.bound(request_id=request_id, principal=None, route=None):
            metrics.HTTP_REQUESTS_IN_PROGRESS.inc()
            span = tracing.start_request_span(request)
            try:
                response = self.get_response(request)
            finally:
                metrics.HTTP_REQUESTS_IN_PROGRESS.dec()
            elapsed = time.perf_counter() - started
            route = route_of(request)
            principal = context.principal.get() or _principal_of(request)
            method = request.method if request.method in _METHODS else "OTHER"
            response["X-Request-ID"] = request_id
            metrics.HTTP_REQUEST_DURATION.labels(route, method, str(response.status_code)).observe(elapsed)
            tracing.end_request_span(
                span, route=route, status=response.status_code, request_id=request_id, principal=principal
            )
            logger.info(
                "request",
                extra={
                    "route": route,
                    "principal": principal,
                    "method": method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round(elapsed * 1000, 1),
                },
            )
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        # from here on, log events of this request name its route
        if request.resolver_match is not None:
            context.route.set(route_of(request))
        return None
