"""The success envelope and the error body, built in one place."""

from rest_framework.response import Response

ERROR_CODES_BY_STATUS = {
    400: "VALIDATION_ERROR",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    406: "NOT_ACCEPTABLE",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "UNPROCESSABLE",
    429: "RATE_LIMITED",
    500: "INTERNAL_ERROR",
    503: "SERVICE_UNAVAILABLE",
}


def ok(data=None, *, message: str | None = None, status: int = 200, headers=None) -> Response:
    body = {"success": True, "data": {} if data is None else data}
    if message:
        body["message"] = message
    return Response(body, status=status, headers=headers)


def error_body(status: int, message: str, code: str | None = None, details: dict | None = None) -> dict:
    error = {"code": code or ERROR_CODES_BY_STATUS.get(status, "ERROR"), "message": message}
    if details:
        error["details"] = details
    return {"success": False, "message": message, "statusCode": status, "error": error}
