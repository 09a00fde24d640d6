"""The success envelope and the error body, built in one place.

Nothing of Django or DRF is imported at module level: the gunicorn worker (``backoffice.http.serving``)
builds its error pages with ``error_body`` before Django is set up.
"""

from http import HTTPStatus

# Everything under this prefix answers in the envelope, never an HTML page.
API_PREFIX = "/api/"

ERROR_CODES_BY_STATUS = {
    400: "VALIDATION_ERROR",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    406: "NOT_ACCEPTABLE",
    408: "REQUEST_TIMEOUT",
    409: "CONFLICT",
    411: "LENGTH_REQUIRED",
    413: "PAYLOAD_TOO_LARGE",
    414: "URI_TOO_LONG",
    415: "UNSUPPORTED_MEDIA_TYPE",
    417: "EXPECTATION_FAILED",
    422: "UNPROCESSABLE",
    429: "RATE_LIMITED",
    431: "HEADERS_TOO_LARGE",
    500: "INTERNAL_ERROR",
    501: "NOT_IMPLEMENTED",
    503: "SERVICE_UNAVAILABLE",
}

# The message of an error known only by its status (a page Django or gunicorn would render as HTML).
STATUS_MESSAGES = {
    400: "Bad request",
    403: "You do not have permission to perform this action",
    404: "Endpoint not found",
    405: "Method not allowed",
    413: "Request body is too large",
    414: "The request line (method, path and query) is too long",
    431: "The request headers are too large",
    500: "Internal server error",
}


def is_api(request) -> bool:
    return request.path.startswith(API_PREFIX) or request.path == API_PREFIX.rstrip("/")


def status_message(status: int) -> str:
    try:
        return STATUS_MESSAGES.get(status) or HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def ok(data=None, *, message: str | None = None, status: int = 200, headers=None):
    from rest_framework.response import Response

    body = {"success": True, "data": {} if data is None else data}
    if message:
        body["message"] = message
    return Response(body, status=status, headers=headers)


def error_body(status: int, message: str, code: str | None = None, details: dict | None = None) -> dict:
    error = {"code": code or ERROR_CODES_BY_STATUS.get(status, "ERROR"), "message": message}
    if details:
        error["details"] = details
    return {"success": False, "message": message, "statusCode": status, "error": error}
