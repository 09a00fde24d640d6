"""The verification providers: one small interface, two implementations, chosen by ``VERIFICATION_PROVIDER``.

``local`` (default) runs on this machine with no network and no account: dlib for faces, tesseract or RapidOCR
for text.
``aws`` calls Textract and Rekognition through boto3. Both answer with the same dataclasses
(``verification.engine.types``) and raise the same errors (``verification.engine.errors``), so the job layer
does not know which one ran; it records ``versions()`` and ``thresholds()`` on each job.

This module and ``fetch`` are the only places of the engine that read Django settings.
"""

from typing import Protocol

from backoffice.registry import ProviderRegistry
from verification.engine.quality import QualityLimits
from verification.engine.types import FaceComparison, OcrResult, QualityReport, Role


class Provider(Protocol):
    name: str  # "local" | "aws"

    def versions(self) -> dict[str, str]:
        """The engines and models in use and their versions."""

    def thresholds(self) -> dict[str, float]:
        """The quality limits and the similarity mapping in use."""

    def check_quality(self, image: bytes, *, role: Role) -> QualityReport:
        """The quality gate on one image; undecodable bytes give a report with a NOT_AN_IMAGE issue."""

    def extract_text(self, id_front: bytes, id_back: bytes | None = None) -> OcrResult:
        """The fields of the ID card (front wins over back); raises OcrFailed."""

    def compare_faces(self, source: bytes, target: bytes) -> FaceComparison:
        """The largest face of ``source`` (the ID) against that of ``target`` (the selfie); raises
        FaceComparisonFailed, naming the image when one has no face."""

    def embed_face(self, image: bytes) -> tuple[float, ...] | None:
        """A descriptor of the largest face (local: 128 floats), None when there is no face or no descriptor."""

    def configure(self, *, limits: QualityLimits, region: str, ocr_engine: str = "auto") -> None:
        """Apply the limits, the AWS region and the local OCR engine (``VERIFICATION_OCR_ENGINE``) from the
        settings (called by ``get_provider``)."""


providers = ProviderRegistry(
    "VERIFICATION_PROVIDER",
    {"local": "verification.engine.local.LocalProvider", "aws": "verification.engine.aws.AwsProvider"},
)


def limits_from_settings() -> QualityLimits:
    """The quality limits of ``backoffice/settings/verification.py``; an unset (None) one keeps the default."""
    from django.conf import settings

    defaults = QualityLimits()

    def value(setting: str, default):
        configured = getattr(settings, setting, None)
        return default if configured is None else configured

    low, high = value("VERIFICATION_BRIGHTNESS_RANGE", (defaults.brightness_low, defaults.brightness_high))
    return QualityLimits(
        min_face_px_selfie=int(value("VERIFICATION_MIN_FACE_PX_SELFIE", defaults.min_face_px_selfie)),
        min_face_px_id=int(value("VERIFICATION_MIN_FACE_PX_ID", defaults.min_face_px_id)),
        min_sharpness=float(value("VERIFICATION_MIN_SHARPNESS", defaults.min_sharpness)),
        brightness_low=float(low),
        brightness_high=float(high),
        max_glare=float(value("VERIFICATION_MAX_GLARE", defaults.max_glare)),
    )


def get_provider(name: str | None = None) -> Provider:
    """The provider named by ``name`` or by ``VERIFICATION_PROVIDER``, configured from the settings; one instance
    per process and name (models load once)."""
    from django.conf import settings

    provider = providers.get(name)
    provider.configure(
        limits=limits_from_settings(),
        region=getattr(settings, "VERIFICATION_AWS_REGION", "af-south-1"),
        ocr_engine=getattr(settings, "VERIFICATION_OCR_ENGINE", "auto"),
    )
    return provider


# dlib distance -> similarity (0-100): piecewise linear through these points. The interface's decision bands
# (>= 80 approve, 60-79 manual review, < 60 reject) then fall at distance 0.50 and 0.62, either side of dlib's
# published operating point (0.6: 99.38% on LFW). See docs/verification-engine.md.
SIMILARITY_BREAKPOINTS: tuple[tuple[float, float], ...] = ((0.0, 100.0), (0.50, 80.0), (0.62, 60.0), (1.0, 0.0))


def face_distance_to_similarity(distance: float) -> float:
    """The similarity (0-100) of two faces whose dlib descriptors are ``distance`` apart: 100 at 0, 80 at 0.50,
    60 at 0.62, 0 from 1.0 on; linear in between, so it falls monotonically with the distance."""
    if distance != distance:  # NaN
        return 0.0
    if distance <= 0:
        return 100.0
    points = SIMILARITY_BREAKPOINTS
    for (d0, s0), (d1, s1) in zip(points, points[1:], strict=False):
        if distance <= d1:
            return s0 + (s1 - s0) * (distance - d0) / (d1 - d0)
    return 0.0
