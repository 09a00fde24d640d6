"""What compliance services refuse beyond the foundation's errors (backoffice.errors)."""

from backoffice.errors import DomainError


class FourEyesRequired(DomainError):
    status = 403
    code = "FOUR_EYES_REQUIRED"
    default_message = "Four-eyes principle: this step needs a different person"
