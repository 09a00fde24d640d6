"""Two process calls never run one job twice; the time left comes from measured stage durations."""

import datetime as dt

import pytest
from django.utils import timezone

from backoffice.tests.concurrency import run_in_threads
from verification.models import VerificationJob
from verification.selectors.timing import NOMINAL_SECONDS, estimated_time_remaining, stage_durations
from verification.services import job_process
from verification.services.jobs import _claim

pytestmark = pytest.mark.django_db


class _Provider:
    name = "local"

    def versions(self):
        return {}

    def thresholds(self):
        return {}


def test_a_job_held_by_one_call_is_409_for_another(sipho, make_job):
    job = make_job(sipho)
    assert _claim(job, _Provider()) is True
    assert _claim(job, _Provider()) is False
    from verification.errors import JobInProgress

    with pytest.raises(JobInProgress):
        job_process(job=job)


def test_a_claim_left_by_a_dead_worker_can_be_taken_again(sipho, make_job, settings):
    job = make_job(sipho)
    assert _claim(job, _Provider())
    VerificationJob.objects.filter(pk=job.pk).update(claimed_at=timezone.now() - dt.timedelta(hours=1))
    assert _claim(job, _Provider()) is True


@pytest.mark.django_db(transaction=True)
def test_concurrent_process_calls_run_the_job_once(postgres_only, make_job):
    from kyc.tests.factories import PlatformUserFactory

    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini")
    job = make_job(user)
    outcomes = run_in_threads(4, lambda i: job_process(job=VerificationJob.objects.get(pk=job.pk)))
    finished = [o for o in outcomes if isinstance(o, VerificationJob)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert finished and all(type(e).__name__ == "JobInProgress" for e in refused), outcomes
    job.refresh_from_db()
    assert job.attempts == 1 and job.decision == "approved"


def test_with_no_history_the_interfaces_nominal_durations_stand_in(sipho, make_job):
    job = make_job(sipho)
    assert stage_durations(fresh=True) == NOMINAL_SECONDS
    assert estimated_time_remaining(job) == sum(NOMINAL_SECONDS.values())


def test_the_time_left_is_the_median_of_measured_stages(sipho, make_job):
    for seconds in (1.0, 2.0, 9.0):
        done = make_job(sipho)
        VerificationJob.objects.filter(pk=done.pk).update(
            status="COMPLETED",
            decision="approved",
            completed_at=timezone.now(),
            timings={"ocr_processing": seconds, "face_verification": seconds / 2, "final_review": 0.1},
        )
    durations = stage_durations(fresh=True)
    assert durations == {"ocr_processing": 2.0, "face_verification": 1.0, "final_review": 0.1}
    pending = make_job(sipho)
    assert estimated_time_remaining(pending) == pytest.approx(3.1)
