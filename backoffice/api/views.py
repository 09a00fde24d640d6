"""Views that belong to no domain: health and the /api/ catch-all."""

import logging

from django.core.cache import cache
from django.core.files.storage import default_storage
from django.db import connection
from django.http import FileResponse
from django.views import defaults
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes, schema
from rest_framework.response import Response
from rest_framework.views import APIView

from backoffice.api.envelope import error_body, is_api, ok
from backoffice.api.exceptions import answer_for, json_error, status_answer
from backoffice.api.permissions import IsStaff, Public
from backoffice.api.serializers import StaffMeOut
from backoffice.errors import NotFound
from backoffice.files import file_name_from_token, guess_content_type

logger = logging.getLogger("backoffice.health")


def _check(name, probe) -> str:
    try:
        probe()
        return "ok"
    except Exception:
        logger.exception("health check of %s failed", name)
        return "error"


def _database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _cache():
    cache.set("health:probe", "1", 10)
    if cache.get("health:probe") != "1":
        raise RuntimeError("cache did not return what was stored")


def _storage():
    default_storage.exists("health-probe")


_PART = ["ok", "error"]
_HEALTH = inline_serializer(
    "Health",
    {name: serializers.ChoiceField(_PART) for name in ("status", "database", "cache", "storage")},
)


class HealthView(APIView):
    authentication_classes = []
    permission_classes = [Public]

    @extend_schema(
        summary="Health of the service and its parts",
        responses={200: _HEALTH, 503: OpenApiResponse(description='A part is down; `data` marks it "error"')},
    )
    def get(self, request):
        parts = {
            "database": _check("database", _database),
            "cache": _check("cache", _cache),
            "storage": _check("storage", _storage),
        }
        healthy = all(v == "ok" for v in parts.values())
        data = {"status": "ok" if healthy else "error", **parts}
        if healthy:
            return Response({"success": True, "data": data})
        body = error_body(503, "A part of the service is unavailable", "SERVICE_UNAVAILABLE")
        body["data"] = data
        return Response(body, status=503)


@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@authentication_classes([])
@permission_classes([Public])
@schema(None)
def api_not_found(request, *args, **kwargs):
    raise NotFound("Endpoint not found")


def _api_or_html(request, exception, status: int, html_view, *args):
    """Django's error page for ``status``: the envelope under /api/, Django's own HTML elsewhere."""

    if not is_api(request):
        return html_view(request, *args)
    if exception is not None and status == 400:
        return json_error(answer_for(exception))
    return json_error(status_answer(status))


def error_400(request, exception=None):
    return _api_or_html(request, exception, 400, defaults.bad_request, exception)


def error_403(request, exception=None):
    return _api_or_html(request, exception, 403, defaults.permission_denied, exception)


def error_404(request, exception=None):
    return _api_or_html(request, exception, 404, defaults.page_not_found, exception)


def error_500(request):
    return _api_or_html(request, None, 500, defaults.server_error)


class StaffMeView(APIView):
    """The signed-in staff member and what their role allows."""

    permission_classes = [IsStaff]

    @extend_schema(summary="The signed-in staff member", responses={200: StaffMeOut})
    def get(self, request):
        return ok(StaffMeOut(request.user).data)


class FileDownloadView(APIView):
    """Streams a private file named by a signed, expiring token (``backoffice.files``).

    The signature is the credential, so the link works in an ``<img>`` tag
    of the admin site or a client without a bearer header; a forged or
    expired token is a 404, whether or not the file exists.
    """

    authentication_classes = []
    permission_classes = [Public]
    envelope = False

    @extend_schema(summary="Download a private file through a signed link", responses={(200, "*/*"): bytes})
    def get(self, request, token: str):
        name = file_name_from_token(token)
        if name is None or not default_storage.exists(name):
            raise NotFound("File not found")
        response = FileResponse(default_storage.open(name, "rb"), content_type=guess_content_type(name))
        response["Content-Disposition"] = "inline"
        response["Cache-Control"] = "private, no-store"
        return response
