"""The engine's errors: plain exceptions whose text is a sentence a person understands.

The job layer maps them to the interface's errors (``OcrFailed`` → 500 "OCR extraction failed",
``FaceComparisonFailed`` → 500 "Face comparison failed", the image errors → 400).

Every error says whether trying the same call again can help: ``retryable`` is a class attribute (the kind's
usual answer) that one instance may override (``OcrFailed("...", retryable=True)`` for a Textract throttle).
Retryable: timeouts, refused or reset connections, throttling and a provider's own 5xx. Not retryable: bytes
that are not an image, an image over the limits, a URL that is not allowed, a card without a face, a
provider's refusal of the request itself.
"""


class EngineError(Exception):
    """Base of every error the verification engine raises."""

    retryable: bool = False

    def __init__(self, *args, retryable: bool | None = None):
        super().__init__(*args)
        if retryable is not None:
            self.retryable = retryable


class NotAnImage(EngineError):
    """The bytes are not a JPEG or PNG image that can be decoded."""


class ImageTooLarge(EngineError):
    """The image is over the size limit (bytes or pixels)."""


class ImageUrlNotAllowed(EngineError):
    """The URL may not be fetched: scheme, host, address, credentials or a redirect elsewhere."""


class ImageFetchFailed(EngineError):
    """The URL was allowed but could not be fetched (timeout, refused connection, 4xx/5xx).

    Retryable unless the server answered a 4xx or the host does not resolve (set per instance)."""

    retryable = True


class OcrFailed(EngineError):
    """The text-extraction provider failed (tesseract missing or crashed, a Textract error)."""


class FaceComparisonFailed(EngineError):
    """The face-comparison provider failed, or one of the two images has no face."""
