from verification.models.identity import FaceTemplate, ImageFingerprint
from verification.models.jobs import VerificationJob, VerificationJobEvent

__all__ = ["FaceTemplate", "ImageFingerprint", "VerificationJob", "VerificationJobEvent"]
