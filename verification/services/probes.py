"""The two test endpoints' work: one face comparison, one card read, on images the caller fetched.

Nothing is stored or audited: these answer what the engine sees, for integrators and officers checking a
provider. The view fetches the images (``verification.images.image_from_url``, an HTTP concern); the engine
work and its errors are here, so the view only translates.
"""

from dataclasses import dataclass

from backoffice.errors import ValidationFailed
from verification.engine.errors import EngineError, FaceComparisonFailed
from verification.engine.providers import get_provider
from verification.errors import FaceComparisonFailed as FaceComparisonError
from verification.errors import OcrExtractionFailed


@dataclass(frozen=True)
class FaceProbe:
    """A comparison and the quality report of each image (``source``: the ID's photo, ``target``: the selfie)."""

    result: object
    quality: dict


def face_comparison_probe(*, source: bytes, target: bytes) -> FaceProbe:
    """Compare the largest face of each image; 400 NO_FACE_FOUND naming the image without one."""
    provider = get_provider()
    try:
        quality = {
            "source": provider.check_quality(source, role="idFront"),
            "target": provider.check_quality(target, role="selfie"),
        }
        faceless = [issue.message for report in quality.values() for issue in report.issues if issue.code == "NO_FACE"]
        if faceless:
            raise ValidationFailed(" ".join(faceless), code="NO_FACE_FOUND")
        return FaceProbe(result=provider.compare_faces(source, target), quality=quality)
    except (FaceComparisonFailed, EngineError) as error:
        raise FaceComparisonError() from error


def ocr_probe(*, image: bytes):
    """The fields the engine reads on one ID image."""
    try:
        return get_provider().extract_text(image)
    except EngineError as error:
        raise OcrExtractionFailed() from error
