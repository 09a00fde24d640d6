"""Verification's background work: running a job (its own queue, ``VERIFICATION_QUEUE``) and finding dead runs.

``process_job`` is idempotent: a finished job is left as it is, and the claim in ``job_process`` makes a
second delivery of the same job (Redis redelivers a task whose worker died) either wait for the first run or
take over its stale claim. Transient errors (the database, Redis, a throttled provider) are retried with
back-off; an engine error that trying again cannot fix leaves the job FAILED with its error, which is the
job's outcome, not the task's failure.
"""

import logging

from celery import shared_task
from django.conf import settings

from backoffice.models import Staff
from backoffice.tasks import VikelaTask
from verification.errors import (
    FaceComparisonFailed,
    JobInProgress,
    OcrExtractionFailed,
    RequiredImagesNotFound,
    UserDataNotFound,
)
from verification.models import VerificationJob
from verification.services import job_process, job_requeue_stale
from verification.services.jobs import PROCESS_JOB

logger = logging.getLogger("verification")


@shared_task(bind=True, base=VikelaTask, name=PROCESS_JOB)
def process_job(self, job_id: str, actor_id: str | None = None) -> str:
    job = VerificationJob.objects.filter(pk=job_id).first()
    if job is None:
        logger.warning("verification job %s is gone; nothing to process", job_id)
        return "MISSING"
    actor = Staff.objects.filter(pk=actor_id).first() if actor_id else None
    try:
        job = job_process(job=job, actor=actor)
    except JobInProgress:
        if self.request.is_eager:
            return "PROCESSING"  # a run in this process holds it
        # another worker holds it (a redelivery while it runs): look again once its claim could be stale
        raise self.retry(countdown=settings.VERIFICATION_STALE_CLAIM_SECONDS + 5, max_retries=3) from None
    except (OcrExtractionFailed, FaceComparisonFailed) as error:
        if getattr(error.__cause__, "retryable", False) and self.request.retries < self.max_retries:
            countdown = min(2 ** (self.request.retries + 1), settings.TASK_RETRY_BACKOFF_MAX)
            raise self.retry(exc=error, countdown=countdown) from None
        return "FAILED"  # the job says FAILED with the engine's error; it may be processed again
    except (UserDataNotFound, RequiredImagesNotFound) as error:
        logger.warning("verification job %s cannot run: %s", job_id, error)
        return "UNRUNNABLE"
    return job.status


@shared_task(base=VikelaTask, name="verification.requeue_stale_jobs")
def requeue_stale_jobs() -> int:
    """Periodic: runs that died mid-way (their claim went stale) are sent again."""
    return len(job_requeue_stale())
