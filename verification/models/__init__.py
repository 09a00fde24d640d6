from verification.models.identity import FaceTemplate, ImageFingerprint
from verification.models.jobs import VerificationJob

__all__ = ["FaceTemplate", "ImageFingerprint", "VerificationJob"]
