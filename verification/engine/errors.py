"""The engine's errors: plain exceptions whose text is a sentence a person understands.

The job layer maps them to the interface's errors (``OcrFailed`` → 500 "OCR extraction failed",
``FaceComparisonFailed`` → 500 "Face comparison failed", the image errors → 400).
"""


class EngineError(Exception):
    """Base of every error the verification engine raises."""


class NotAnImage(EngineError):
    """The bytes are not a JPEG or PNG image that can be decoded."""


class ImageTooLarge(EngineError):
    """The image is over the size limit (bytes or pixels)."""


class ImageUrlNotAllowed(EngineError):
    """The URL may not be fetched: scheme, host, address, credentials or a redirect elsewhere."""


class ImageFetchFailed(EngineError):
    """The URL was allowed but could not be fetched (timeout, refused connection, 4xx/5xx)."""


class OcrFailed(EngineError):
    """The text-extraction provider failed (tesseract missing or crashed, a Textract error)."""


class FaceComparisonFailed(EngineError):
    """The face-comparison provider failed, or one of the two images has no face."""
