"""What the sanctions list services refuse beyond the foundation's errors (backoffice.errors)."""

from backoffice.errors import DomainError, ValidationFailed


class UnreadableListFile(ValidationFailed):
    """A file that is not of its list's format, is cut off or empty (``details`` names the file and why)."""


class ListShrink(DomainError):
    """The import would remove more than half of the list's active entries (allowShrink lets it)."""

    status = 409
    code = "LIST_SHRINK"
    default_message = "The import would remove more than half of the list"
