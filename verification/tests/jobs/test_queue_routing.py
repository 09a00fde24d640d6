"""Verification's runs go to their own queue (VERIFICATION_QUEUE); the sweep of dead runs to the light one."""

import datetime as dt

import pytest
from django.utils import timezone

from backoffice.tasks import dispatch
from verification.models import VerificationJob
from verification.services import job_requeue_stale
from verification.tasks import process_job

pytestmark = pytest.mark.django_db


def test_a_run_goes_to_the_verification_queue(redis_broker):
    dispatch(process_job, args=("0b1e4d6a-0000-4000-8000-000000000000",))
    assert redis_broker.llen("verification") == 1 and redis_broker.llen("default") == 0


def test_the_sweep_sends_only_jobs_whose_claim_went_stale(redis_broker, sipho, make_job, settings):
    settings.VERIFICATION_STALE_CLAIM_SECONDS = 60
    dead, alive, waiting = make_job(sipho), make_job(sipho), make_job(sipho)
    VerificationJob.objects.filter(pk=dead.pk).update(
        status="PROCESSING", claimed_at=timezone.now() - dt.timedelta(minutes=5)
    )
    VerificationJob.objects.filter(pk=alive.pk).update(status="PROCESSING", claimed_at=timezone.now())
    assert job_requeue_stale() == [str(dead.pk)]
    assert redis_broker.llen("verification") == 1
    assert waiting.status == "PENDING"
