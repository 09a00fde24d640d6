"""What the upload checks raise: domain errors with the contract's messages and the reason in ``details``.

``message`` is the text the contract gives ("Invalid file type", "File size exceeds limit", "Upload timeout");
the specific reason a person can act on ("The PDF contains JavaScript") goes in ``details`` under the form
field's name, so the API renders ``{error: {code, message, details: {"file": [reason]}}}`` and the admin can
show both.
"""

from backoffice.errors import Conflict, DomainError, ServiceUnavailable


class UploadRejected(DomainError):
    """Base of the 400s an upload can get; ``reason`` is the one-sentence explanation."""

    status = 400

    def __init__(self, reason: str, *, field: str = "file", message: str | None = None):
        self.reason = reason
        super().__init__(message, details={field: [reason]})


class InvalidFileType(UploadRejected):
    """The bytes are not an accepted kind, disagree with the name's extension, are empty or damaged."""

    # The contract's code for a 400 (it names no specific one for files); the reason is in ``details``.
    code = "VALIDATION_ERROR"
    default_message = "Invalid file type"


class FileTooLarge(UploadRejected):
    """More bytes than the policy allows (checked before and while reading, never after)."""

    code = "VALIDATION_ERROR"
    default_message = "File size exceeds limit"


class UnsafeContent(UploadRejected):
    """An accepted kind with content we refuse to keep: active PDF content, encryption, decompression bombs."""

    code = "UNSAFE_CONTENT"
    default_message = "The file's content is not allowed"


class FileAlreadyStored(Conflict):
    """The target key is taken and the caller did not ask to replace it."""

    code = "FILE_EXISTS"
    default_message = "A file is already stored under this name"


class UploadTimeout(DomainError):
    """The storage did not finish in time (or the upload's deadline passed); nothing was kept."""

    status = 500
    code = "UPLOAD_TIMEOUT"
    default_message = "Upload timeout"


class UploadStorageError(DomainError):
    """The storage refused or failed the write for another reason; nothing was kept."""

    status = 500
    code = "STORAGE_ERROR"
    default_message = "Upload failed"


class StorageUnavailable(ServiceUnavailable):
    """The storage could not be reached or did not answer within its timeouts and retries (a frozen or
    stopped S3): 503 like any other part that is down, a retry later helps; nothing was kept."""

    default_message = "Service temporarily unavailable, try again shortly"

    def __init__(self, message: str | None = None, **kwargs):
        super().__init__(message, **kwargs)
        self.headers = {"Retry-After": "5"}


def storage_connection_errors() -> tuple[type[BaseException], ...]:
    """botocore's errors for an object store that cannot be reached or stops answering (connect and read
    timeouts, refused or dropped connections): an outage, never the file's or the request's fault."""
    from botocore.exceptions import ConnectionError as BotoConnectionError
    from botocore.exceptions import HTTPClientError

    return (BotoConnectionError, HTTPClientError)
