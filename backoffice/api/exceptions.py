"""The one exception path: every API error leaves in the contract's envelope.

``answer_for(exc)`` decides status, message, code and details for any exception; DRF's exception
handler (``exception_handler``), the API middleware (``json_error``) and Django's error handlers
(``backoffice.api.views.error_400`` ...) all render what it decides, so an error reads the same
whichever layer caught it. Outages map to 503 ``SERVICE_UNAVAILABLE`` (a retry helps), never 500.
"""

import logging
from dataclasses import dataclass, field

from django.core.exceptions import (
    DisallowedHost,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404, JsonResponse, UnreadablePostError
from rest_framework import exceptions
from rest_framework.response import Response

from backoffice.api.envelope import ERROR_CODES_BY_STATUS, error_body, status_message
from backoffice.api.inputs import flatten
from backoffice.errors import DomainError, django_validation_details
from backoffice.uploads.errors import storage_connection_errors

logger = logging.getLogger("backoffice.api")

UNAVAILABLE = "Service temporarily unavailable, try again shortly"


@dataclass
class Answer:
    status: int
    message: str
    code: str | None = None
    details: dict | None = None
    headers: dict = field(default_factory=dict)

    def body(self) -> dict:
        return error_body(self.status, self.message, self.code, self.details)


def _cache_errors() -> tuple[type[BaseException], ...]:
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # pragma: no cover - redis is a requirement
        return ()
    return (RedisConnectionError, RedisTimeoutError)


def _drf_answer(exc: exceptions.APIException) -> Answer:
    if isinstance(exc, exceptions.ValidationError):
        return Answer(400, "Validation error", "VALIDATION_ERROR", flatten(exc.detail))
    if isinstance(exc, exceptions.ParseError):
        return Answer(400, f"Malformed request body: {exc.detail}", "VALIDATION_ERROR")
    if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
        message = exc.detail if isinstance(exc.detail, str) else "Authentication failed"
        return Answer(401, str(message), "UNAUTHORIZED", headers={"WWW-Authenticate": 'Bearer realm="api"'})
    if isinstance(exc, exceptions.Throttled):
        return Answer(429, "Too many requests", "RATE_LIMITED")
    codes = {
        exceptions.PermissionDenied: "FORBIDDEN",
        exceptions.NotFound: "NOT_FOUND",
        exceptions.MethodNotAllowed: "METHOD_NOT_ALLOWED",
        exceptions.NotAcceptable: "NOT_ACCEPTABLE",
        exceptions.UnsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
    }
    code = next((code for cls, code in codes.items() if isinstance(exc, cls)), None)
    return Answer(exc.status_code, str(exc.detail), code)


def _causes(exc: BaseException):
    while exc is not None:
        yield exc
        exc = exc.__cause__


def answer_for(exc: BaseException) -> Answer:
    """The envelope for ``exc``; anything not recognised is a logged 500 that reveals nothing."""
    if isinstance(exc, DomainError):
        return Answer(exc.status, exc.message, exc.code, exc.details, dict(getattr(exc, "headers", None) or {}))
    if isinstance(exc, exceptions.APIException):
        return _drf_answer(exc)
    if isinstance(exc, Http404):
        return Answer(404, "Not found", "NOT_FOUND")
    if isinstance(exc, DjangoPermissionDenied):
        return Answer(403, "You do not have permission to perform this action", "FORBIDDEN")
    if isinstance(exc, DjangoValidationError):
        return Answer(400, "Validation error", "VALIDATION_ERROR", django_validation_details(exc))
    if isinstance(exc, UnreadablePostError):
        # the body stopped coming: past its deadline (backoffice.http.serving), or the client went away
        if any(isinstance(cause, TimeoutError) for cause in _causes(exc)):
            return Answer(408, "The request body did not arrive in time", "REQUEST_TIMEOUT")
        return Answer(400, "The request body could not be read", "VALIDATION_ERROR")
    if isinstance(exc, RequestDataTooBig):
        return Answer(413, "Request body is too large", "PAYLOAD_TOO_LARGE")
    if isinstance(exc, TooManyFieldsSent):
        return Answer(400, "Too many parameters or form fields", "VALIDATION_ERROR")
    if isinstance(exc, TooManyFilesSent):
        return Answer(400, "Too many files", "VALIDATION_ERROR")
    if isinstance(exc, DisallowedHost):
        return Answer(400, "The Host header names a host this server does not serve", "VALIDATION_ERROR")
    if isinstance(exc, SuspiciousOperation):  # a bad session cookie, a malformed multipart...: the request's fault
        return Answer(400, "Bad request", "VALIDATION_ERROR")
    # the database, Redis or the object store down or not answering (S3 calls give up after their bounded
    # timeouts and retries, AWS_S3_*: a download or a readiness check of a frozen S3 lands here)
    if isinstance(exc, (OperationalError, InterfaceError, *_cache_errors(), *storage_connection_errors())):
        logger.error("service unavailable: %s: %s", type(exc).__name__, str(exc).strip()[:200])
        return Answer(503, UNAVAILABLE, "SERVICE_UNAVAILABLE", headers={"Retry-After": "5"})
    if isinstance(exc, DataError):
        # the database refused a value no serializer caught (an out-of-range number, ...): the input's fault
        logger.warning("database refused a value: %s", str(exc).strip()[:200])
        return Answer(400, "A value is out of range or malformed", "VALIDATION_ERROR")
    logger.error("Unhandled error", exc_info=exc)
    return Answer(500, "Internal server error", "INTERNAL_ERROR")


def exception_handler(exc, context):
    """DRF's handler: every exception a view raises, rendered in the envelope."""
    answer = answer_for(exc)
    return Response(answer.body(), status=answer.status, headers=answer.headers or None)


def status_answer(status: int) -> Answer:
    """The envelope for a bare status (a page Django rendered as HTML)."""
    return Answer(status, status_message(status), ERROR_CODES_BY_STATUS.get(status, "ERROR"))


def json_error(answer: Answer) -> JsonResponse:
    """The same envelope outside DRF (middleware, Django's error handlers)."""
    # compact, like DRF's renderer, so an error reads the same whichever layer wrote it
    response = JsonResponse(answer.body(), status=answer.status, json_dumps_params={"separators": (",", ":")})
    response["Content-Length"] = str(len(response.content))
    for name, value in answer.headers.items():
        response[name] = value
    return response
