from django.db import models


class JobStatus(models.TextChoices):
    """The interface's job statuses; FAILED is a provider error (the process endpoint may answer it)."""

    PENDING = "PENDING", "Pending"
    PROCESSING = "PROCESSING", "Processing"
    COMPLETED = "COMPLETED", "Completed"
    REJECTED = "REJECTED", "Rejected"
    FAILED = "FAILED", "Failed"


FINISHED = frozenset({JobStatus.COMPLETED, JobStatus.REJECTED})


class Stage(models.TextChoices):
    SUBMITTED = "submitted", "Documents uploaded"
    OCR_PROCESSING = "ocr_processing", "Reading the ID document"
    FACE_VERIFICATION = "face_verification", "Comparing faces"
    FINAL_REVIEW = "final_review", "Final review"
    COMPLETED = "completed", "Completed"
    REJECTED = "rejected", "Rejected"


# The stages a job goes through, in order; completed and rejected are where it ends.
WORK_STAGES = (Stage.SUBMITTED, Stage.OCR_PROCESSING, Stage.FACE_VERIFICATION, Stage.FINAL_REVIEW)


class StageStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class Decision(models.TextChoices):
    APPROVED = "approved", "Approved"
    MANUAL_REVIEW = "manual_review", "Manual review"
    REJECTED = "rejected", "Rejected"


class RejectionCode(models.TextChoices):
    """Why a job was rejected, so a client can tell "retake the photo" from "not the same person"."""

    IMAGE_QUALITY = "IMAGE_QUALITY", "An image is not good enough to check"
    FACE_MISMATCH = "FACE_MISMATCH", "The faces do not match"
    DOCUMENT_EXPIRED = "DOCUMENT_EXPIRED", "The ID document has expired"
    OFFICER_DECISION = "OFFICER_DECISION", "Rejected by a compliance officer"


class DuplicateType(models.TextChoices):
    ID_NUMBER = "ID_NUMBER", "Same ID number"
    FACE = "FACE", "Same face"
    IMAGE = "IMAGE", "Same image"


class ImageRole(models.TextChoices):
    ID_FRONT = "idFront", "ID front"
    ID_BACK = "idBack", "ID back"
    SELFIE = "selfie", "Selfie"
