"""Verification's domain errors, with the interface's messages (its error table, "Verification")."""

from backoffice.errors import Conflict, DomainError, InvalidTransition, NotFound, ValidationFailed


class JobNotFound(NotFound):
    default_message = "Job not found"


class UserDataNotFound(NotFound):
    default_message = "KYC user data not found"


class RequiredImagesNotFound(ValidationFailed):
    default_message = "Required images not found"


class JobInProgress(Conflict):
    default_message = "The job is being processed by another request; read its status"


class JobNotAwaitingReview(InvalidTransition):
    default_message = "Only a job waiting for manual review can be decided"


class FaceComparisonFailed(DomainError):
    status = 500
    code = "INTERNAL_ERROR"
    default_message = "Face comparison failed"


class OcrExtractionFailed(DomainError):
    status = 500
    code = "INTERNAL_ERROR"
    default_message = "OCR extraction failed"


class ImageUrlNotAllowed(ValidationFailed):
    code = "IMAGE_URL_NOT_ALLOWED"
    default_message = "This image URL is not allowed"


class ImageNotUsable(ValidationFailed):
    default_message = "The URL does not give a JPEG or PNG image of at most 10 MB"
