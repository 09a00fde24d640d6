"""Reads of verification jobs: the job list, one job for a principal, the bytes of a job's image."""

import uuid
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from backoffice.models import Staff
from kyc.choices import DocumentType, VerificationStatus
from kyc.models import KycDocument
from verification.choices import Decision, JobStatus, Stage
from verification.errors import JobNotFound
from verification.models import VerificationJob


def jobs() -> QuerySet[VerificationJob]:
    return VerificationJob.objects.select_related(
        "user", "id_front", "id_back", "selfie", "decided_by", "approval_proposed_by"
    )


def job_get(*, job_id, principal=None) -> VerificationJob:
    """The job with this id; 404 "Job not found" for an unknown or malformed id, and for a user's request
    about someone else's job (a user sees only their own)."""
    try:
        pk = uuid.UUID(str(job_id))
    except (TypeError, ValueError, AttributeError):
        raise JobNotFound() from None
    queryset = jobs().filter(pk=pk)
    if principal is not None and not isinstance(principal, Staff):
        queryset = queryset.filter(user_id=principal.pk)
    job = queryset.first()
    if job is None:
        raise JobNotFound()
    return job


def job_image(document) -> bytes | None:
    """The bytes of one of the job's images, or None when the document or its file is gone."""
    if document is None or not document.file.name:
        return None
    try:
        with document.file.storage.open(document.file.name, "rb") as handle:
            return handle.read()
    except (FileNotFoundError, OSError):
        return None


def job_work_counts() -> dict:
    """Jobs waiting for an officer's decision, and failed runs, in one query."""
    return VerificationJob.objects.aggregate(
        waiting=Count("pk", filter=Q(decision=Decision.MANUAL_REVIEW, decided_at__isnull=True)),
        failed=Count("pk", filter=Q(status=JobStatus.FAILED)),
    )


# The images an identity check needs (the ID back is optional: not every card has one).
REQUIRED_IMAGES = (DocumentType.ID_FRONT, DocumentType.SELFIE)


@dataclass(frozen=True)
class SupportStatus:
    """What support may tell a customer about their identity check: where it stands and what is missing.

    No compliance data (tipping-off): no decision reason, face score, duplicate, risk or officer's note; a
    check waiting for an officer reads "waiting for a review", whatever the review is about.
    """

    status: str  # the customer's verification status, in words
    stage: str  # where the latest check is, in words
    missing: tuple[str, ...]  # the images not uploaded yet, in words
    next_step: str  # what happens next, as support says it to the customer
    submitted_at: object = None


def verification_support_status(*, user) -> SupportStatus:
    """The customer's identity check as support sees it (two queries: the latest job, the uploaded image types)."""
    job = VerificationJob.objects.filter(user=user).order_by("-created_at").first()
    uploaded = set(KycDocument.objects.filter(user=user).values_list("type", flat=True).distinct())
    missing = tuple(DocumentType(kind).label for kind in REQUIRED_IMAGES if kind not in uploaded)
    status = user.get_verification_status_display()
    if user.verification_status == VerificationStatus.VERIFIED:
        return SupportStatus(status, "Verified", (), "Nothing to do: the identity is verified.")
    if job is None:
        step = (
            f"The customer uploads {' and '.join(m.lower() for m in missing)} in the app; the check starts then."
            if missing
            else "The images are in; the check starts when the customer submits them for verification in the app."
        )
        return SupportStatus(status, "Not submitted yet", missing, step)
    if job.status == JobStatus.FAILED:
        stage, step = "Stopped by a technical error", "The check is run again; nothing is needed from the customer."
    elif job.awaits_review:
        stage, step = "Waiting for a review", "A compliance officer reviews it; nothing is needed from the customer."
    elif job.status == JobStatus.REJECTED:
        stage = "Not accepted"
        step = "The customer submits new images in the app (a clear photo of the ID card and a new selfie)."
    elif job.status == JobStatus.COMPLETED:
        stage, step = "Checked", "The result is being recorded on the customer's profile."
    else:
        stage = Stage(job.current_stage).label if job.current_stage in Stage.values else "In progress"
        step = "The check is running; nothing is needed from the customer."
    return SupportStatus(status, stage, missing, step, submitted_at=job.created_at)
