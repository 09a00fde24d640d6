"""Reads of verification jobs: the job list, one job for a principal, the bytes of a job's image."""

import uuid

from django.db.models import QuerySet

from backoffice.models import Staff
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
