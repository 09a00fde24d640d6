"""Domain errors: what services raise. The API renders them in the one envelope.

Services never build HTTP responses; they raise one of these, and
``backoffice.api.exceptions.exception_handler`` turns it into
``{success: false, message, statusCode, error: {code, message, details?}}``.
The admin site shows ``message`` through ``message_user``.
"""


class DomainError(Exception):
    status = 400
    code = "VALIDATION_ERROR"
    default_message = "Validation error"

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        status: int | None = None,
        details: dict[str, list[str]] | None = None,
        words: str | None = None,
    ):
        self.message = message or self.default_message
        # the refusal as the admin site shows it, where the API's message names codes a person does not read
        # ("Cannot move vendor KYC from DOCUMENTS_SUBMITTED to VERIFIED": the contract's wording for clients)
        self.words = words
        if code:
            self.code = code
        if status:
            self.status = status
        self.details = details
        super().__init__(self.message)

    @property
    def said(self) -> str:
        """What a person in the admin site reads: ``words`` when the service gave them, else the message."""
        return self.words or self.message


class ValidationFailed(DomainError):
    status = 400
    code = "VALIDATION_ERROR"
    default_message = "Validation error"


class NotFound(DomainError):
    status = 404
    code = "NOT_FOUND"
    default_message = "Not found"


class Conflict(DomainError):
    status = 409
    code = "CONFLICT"
    default_message = "Conflict"


class Forbidden(DomainError):
    status = 403
    code = "FORBIDDEN"
    default_message = "You do not have permission to perform this action"


class Unauthorized(DomainError):
    status = 401
    code = "UNAUTHORIZED"
    default_message = "Authentication credentials were not provided or are invalid"


class PayloadTooLarge(DomainError):
    status = 413
    code = "PAYLOAD_TOO_LARGE"
    default_message = "Request body is too large"


class LengthRequired(DomainError):
    status = 411
    code = "LENGTH_REQUIRED"
    default_message = "Send the request body with a Content-Length header; chunked transfer encoding is not accepted"


class UnsupportedMediaType(DomainError):
    status = 415
    code = "UNSUPPORTED_MEDIA_TYPE"
    default_message = "Unsupported media type"


class ServiceUnavailable(DomainError):
    """A part the request needs (the database, the cache) is down: retrying later helps."""

    status = 503
    code = "SERVICE_UNAVAILABLE"
    default_message = "Service temporarily unavailable"


class InvalidTransition(Conflict):
    """A move a state machine does not have (SARs, alerts): 409 whoever asks."""

    code = "INVALID_TRANSITION"


class InvalidCredentials(DomainError):
    status = 401
    code = "INVALID_CREDENTIALS"
    default_message = "Invalid credentials"


def django_validation_details(exc) -> dict[str, list[str]]:
    """Field errors of a Django ValidationError as {field: [reason, ...]}."""
    if hasattr(exc, "message_dict"):
        return {("nonFieldErrors" if k == "__all__" else k): [str(m) for m in v] for k, v in exc.message_dict.items()}
    return {"nonFieldErrors": [str(m) for m in getattr(exc, "messages", [str(exc)])]}


class FourEyesRequired(DomainError):
    """A step that needs a second, independent person (SAR review and approval, rule changes, filings)."""

    status = 403
    code = "FOUR_EYES_REQUIRED"
    default_message = "Four-eyes principle: this step needs a different person"
