"""Every engine error says whether trying again can help."""

import pytest

from verification.engine import errors


@pytest.mark.parametrize(
    ("kind", "retryable"),
    [
        (errors.EngineError, False),
        (errors.NotAnImage, False),
        (errors.ImageTooLarge, False),
        (errors.ImageUrlNotAllowed, False),
        (errors.ImageFetchFailed, True),
        (errors.OcrFailed, False),
        (errors.FaceComparisonFailed, False),
    ],
)
def test_each_kind_has_a_default(kind, retryable):
    assert kind.retryable is retryable
    assert kind("message").retryable is retryable
    assert str(kind("message")) == "message"


def test_an_instance_overrides_its_kind():
    throttled = errors.OcrFailed("OCR extraction failed: Textract answered ThrottlingException.", retryable=True)
    assert throttled.retryable
    assert not errors.OcrFailed("OCR extraction failed.").retryable  # the class is unchanged
    assert not errors.ImageFetchFailed("HTTP 404", retryable=False).retryable
