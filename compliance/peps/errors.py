"""What the PEP services refuse beyond the foundation's errors (backoffice.errors)."""

from backoffice.errors import DomainError, ValidationFailed


class UnreadablePepFile(ValidationFailed):
    """A list file that is not UTF-8 text, or not in a format we read (``details["file"]`` says why)."""


class PepImportExpired(DomainError):
    """The preview's ticket is past its hour, forged, or its file was already imported."""

    status = 409
    code = "IMPORT_EXPIRED"
    default_message = "This preview has expired: upload the file again."
