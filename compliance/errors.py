"""What compliance services refuse beyond the foundation's errors (backoffice.errors)."""

from backoffice.errors import DomainError


class FourEyesRequired(DomainError):
    status = 403
    code = "FOUR_EYES_REQUIRED"
    default_message = "Four-eyes principle: this step needs a different person"


class PayloadTooLarge(DomainError):
    """A request carrying more items than an endpoint takes at once (the PEP bulk upload)."""

    status = 413
    code = "PAYLOAD_TOO_LARGE"
    default_message = "Request too large"
