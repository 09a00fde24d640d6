"""Readiness (``GET /api/v1/health/ready``) and Prometheus metrics (``GET /metrics``): contract, "Operations".

Liveness is ``GET /api/v1/health`` (``backoffice.api.views.HealthView``). Readiness asks every part that
serving needs and is configured: the database (and its replica when ``DATABASE_REPLICA_URL`` is set), the
cache, the Celery broker when ``CELERY_BROKER_URL`` is set, the file storage. A load balancer takes a server
out while it answers 503 and back when it answers 200.
"""

import hmac
import logging

from django.conf import settings
from django.db import connections
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.response import Response
from rest_framework.views import APIView

from backoffice.api.authentication import StaffJWTAuthentication
from backoffice.api.envelope import error_body
from backoffice.api.exceptions import Answer, json_error
from backoffice.api.permissions import Public
from backoffice.api.views import _cache, _check, _storage
from backoffice.choices import StaffRole
from backoffice.ops import db_deadline, metrics

logger = logging.getLogger("backoffice.health")


def _database(alias: str):
    def probe():
        # the whole probe (the reused connection's check, connecting, the query) within a few seconds, whatever
        # the server does: a load balancer waiting on a frozen database must hear 503, not wait with it
        with db_deadline.at_most(settings.DB_HEALTH_CHECK_SECONDS), connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    return probe


def _broker():
    import redis

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        if not client.ping():
            raise RuntimeError("the broker did not answer PING")
    finally:
        client.close()


def readiness_parts() -> dict[str, str]:
    parts = {"database": _check("database", _database("default"))}
    if "replica" in settings.DATABASES:
        parts["replica"] = _check("replica", _database("replica"))
    parts["cache"] = _check("cache", _cache)
    if settings.TASKS_ASYNC:
        parts["broker"] = _check("broker", _broker)
    parts["storage"] = _check("storage", _storage)
    return parts


_PART = ["ok", "error"]
_READY = inline_serializer(
    "Readiness",
    {name: serializers.ChoiceField(_PART, required=False) for name in ("database", "replica", "cache", "broker")}
    | {"storage": serializers.ChoiceField(_PART)},
)


class ReadinessView(APIView):
    authentication_classes = []
    permission_classes = [Public]

    @extend_schema(
        summary="Whether this server can serve: each configured part it needs",
        description="`replica` appears when DATABASE_REPLICA_URL is set, `broker` when CELERY_BROKER_URL is set.",
        responses={200: _READY, 503: OpenApiResponse(description='A part is down; `data` marks it "error"')},
    )
    def get(self, request):
        parts = readiness_parts()
        failed = sorted(name for name, state in parts.items() if state != "ok")
        if not failed:
            return Response({"success": True, "data": parts})
        body = error_body(503, f"Not ready: {', '.join(failed)} unavailable", "SERVICE_UNAVAILABLE")
        body["data"] = parts
        response = Response(body, status=503)
        response["Retry-After"] = "5"
        return response


def _unauthorized(message: str) -> HttpResponse:
    response = json_error(Answer(401, message, "UNAUTHORIZED"))
    response["WWW-Authenticate"] = 'Bearer realm="metrics"'
    response["Cache-Control"] = "no-store"
    return response


def metrics_allowed(request) -> bool:
    """An admin's access token, or the METRICS_TOKEN as a bearer token (compared in constant time)."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme != "Bearer" or not token.strip():
        return False
    token = token.strip()
    expected = settings.METRICS_TOKEN
    if expected and hmac.compare_digest(token.encode(), expected.encode()):
        return True
    try:
        found = StaffJWTAuthentication().authenticate(request)
    except AuthenticationFailed:
        return False
    if found is None:
        return False
    staff = found[0]
    return staff.is_active and (staff.is_superuser or staff.role == StaffRole.ADMIN)


def metrics_view(request):
    """Prometheus text of this machine's processes, for an admin or the scraper's METRICS_TOKEN."""
    if request.method not in ("GET", "HEAD"):
        response = json_error(Answer(405, f'Method "{request.method}" not allowed.', "METHOD_NOT_ALLOWED"))
        response["Allow"] = "GET, HEAD"
        return response
    if not metrics_allowed(request):
        return _unauthorized("An administrator's token or the metrics token is required")
    response = HttpResponse(metrics.exposition(), content_type=metrics.CONTENT_TYPE)
    response["Cache-Control"] = "no-store"
    return response
