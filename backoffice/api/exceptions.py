"""The one exception handler: every API error leaves in the contract's envelope."""

import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response

from backoffice.api.envelope import error_body
from backoffice.api.inputs import flatten
from backoffice.errors import DomainError, django_validation_details

logger = logging.getLogger("backoffice.api")


def render(status: int, message: str, code: str | None = None, details: dict | None = None, headers=None) -> Response:
    return Response(error_body(status, message, code, details), status=status, headers=headers)


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        return render(exc.status, exc.message, exc.code, exc.details)
    if isinstance(exc, RequestDataTooBig):
        return render(413, "Request body too large", "PAYLOAD_TOO_LARGE")
    if isinstance(exc, Http404):
        return render(404, "Not found", "NOT_FOUND")
    if isinstance(exc, DjangoPermissionDenied):
        return render(403, "You do not have permission to perform this action", "FORBIDDEN")
    if isinstance(exc, DjangoValidationError):
        return render(400, "Validation error", "VALIDATION_ERROR", django_validation_details(exc))
    if isinstance(exc, exceptions.ValidationError):
        details = flatten(exc.detail)
        return render(400, "Validation error", "VALIDATION_ERROR", details)
    if isinstance(exc, exceptions.ParseError):
        return render(400, f"Malformed request body: {exc.detail}", "VALIDATION_ERROR")
    if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
        message = exc.detail if isinstance(exc.detail, str) else "Authentication failed"
        return render(401, str(message), "UNAUTHORIZED", headers={"WWW-Authenticate": 'Bearer realm="api"'})
    if isinstance(exc, exceptions.PermissionDenied):
        return render(403, str(exc.detail), "FORBIDDEN")
    if isinstance(exc, exceptions.NotFound):
        return render(404, str(exc.detail), "NOT_FOUND")
    if isinstance(exc, exceptions.MethodNotAllowed):
        return render(405, str(exc.detail), "METHOD_NOT_ALLOWED")
    if isinstance(exc, exceptions.NotAcceptable):
        return render(406, str(exc.detail), "NOT_ACCEPTABLE")
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return render(415, str(exc.detail), "UNSUPPORTED_MEDIA_TYPE")
    if isinstance(exc, exceptions.Throttled):
        return render(429, "Too many requests", "RATE_LIMITED")
    if isinstance(exc, exceptions.APIException):
        return render(exc.status_code, str(exc.detail), None)
    logger.exception("Unhandled error in %s", context.get("view").__class__.__name__ if context else "?")
    return render(500, "Internal server error", "INTERNAL_ERROR")
