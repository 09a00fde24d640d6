"""A job's status is a state machine: every move (submitted, claimed, failed, decided) leaves a history row."""

import datetime as dt
import importlib

import boto3
import pytest
from botocore.stub import Stubber
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.services import history_record
from backoffice.tests.admin_queries import admin_browser, assert_flat
from backoffice.tests.factories import StaffFactory
from kyc.tests.factories import PlatformUserFactory
from verification import events
from verification.engine.aws import AwsProvider
from verification.engine.providers import get_provider
from verification.errors import OcrExtractionFailed
from verification.models import VerificationJob, VerificationJobEvent
from verification.services import job_decide, job_process
from verification.services import jobs as job_services
from verification.services.jobs import SUBMITTED, _claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def officer():
    return StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)


def history(job) -> list[tuple]:
    return list(job.events.order_by("id").values_list("from_status", "to_status", "actor_id", "note"))


@pytest.fixture
def throttled_aws(monkeypatch):
    """The AWS provider whose first Rekognition call is throttled (botocore's Stubber: AWS's own service only)."""
    rekognition = boto3.session.Session().client(
        "rekognition", region_name="eu-west-1", aws_access_key_id="testing", aws_secret_access_key="testing"
    )
    with Stubber(rekognition) as stub:
        stub.add_client_error("detect_faces", "ThrottlingException", "slow down")
        monkeypatch.setattr(
            job_services, "get_provider", lambda: AwsProvider(region="eu-west-1", rekognition=rekognition)
        )
        yield stub
        stub.assert_no_pending_responses()


def test_a_job_s_whole_life_is_in_its_history(officer, sipho, make_job):
    job = job_process(job=make_job(sipho, actor=officer), actor=officer)
    assert (job.status, job.decision) == ("COMPLETED", "approved")
    assert history(job) == [
        ("", "PENDING", officer.pk, SUBMITTED),
        ("PENDING", "PROCESSING", officer.pk, "Run 1 on the local engine"),
        ("PROCESSING", "COMPLETED", officer.pk, "approved"),
    ]
    # the claim is a move of its own but no audit entry: the run's entry is written when it ends
    assert list(AuditLog.objects.order_by("id").values_list("action", flat=True)) == [
        "verification.create",
        "user.verification",
        "verification.process",
    ]


def test_a_failed_run_and_the_run_that_retries_it_are_both_recorded(sipho, make_job, throttled_aws, monkeypatch):
    job = make_job(sipho)
    with pytest.raises(OcrExtractionFailed):
        job_process(job=job)
    job.refresh_from_db()
    assert job.status == "FAILED" and "ThrottlingException" in job.error
    failed = history(job)[-1]
    assert failed[:3] == ("PROCESSING", "FAILED", None)
    assert failed[3] == f"Reading the ID document: {job.error}"

    monkeypatch.setattr(job_services, "get_provider", get_provider)
    job = job_process(job=job)
    assert [row[:2] for row in history(job)] == [
        ("", "PENDING"),
        ("PENDING", "PROCESSING"),
        ("PROCESSING", "FAILED"),
        ("FAILED", "PROCESSING"),
        ("PROCESSING", "COMPLETED"),
    ]
    assert history(job)[3][3] == "Run 2 on the local engine"


def test_a_claim_taken_from_a_run_that_stopped_answering_says_so(sipho, make_job):
    job = make_job(sipho)
    provider = get_provider()
    assert _claim(job, provider)
    assert not _claim(job, provider)  # held: no move, no row
    VerificationJob.objects.filter(pk=job.pk).update(claimed_at=timezone.now() - dt.timedelta(hours=1))
    assert _claim(job, provider)
    assert [row[3] for row in history(job)][1:] == [
        "Run 1 on the local engine",
        "Run 2 on the local engine (the previous run stopped answering)",
    ]


def test_manual_review_then_an_officer_s_decision_are_the_last_two_moves(officer, make_job):
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini", date_of_birth=dt.date(1985, 6, 1))
    job = job_process(job=make_job(user))
    assert job.awaits_review
    job_decide(job=job, actor=officer, decision="rejected", note="Not the same person")
    review, decision = history(job)[-2:]
    assert review[:3] == ("PROCESSING", "COMPLETED", None) and review[3].startswith("manual_review - ")
    assert decision == ("COMPLETED", "REJECTED", officer.pk, "rejected by a compliance officer - Not the same person")


def test_the_job_page_shows_the_history_at_one_cost_however_long(sipho, make_job):
    job = job_process(job=make_job(sipho))
    client = admin_browser(StaffRole.COMPLIANCE_OFFICER)
    url = reverse("admin:verification_verificationjob_change", args=[job.pk])
    page = client.get(url).content.decode()
    assert "Status history" in page and "Run 1 on the local engine" in page

    def more_moves(count):
        for n in range(count):
            history_record(
                job,
                history=VerificationJobEvent,
                source="COMPLETED",
                target="COMPLETED",
                actor=StaffFactory(),
                note=f"n{n}",
            )

    assert_flat(client, url, more_moves)


def test_jobs_older_than_the_history_start_it_with_their_status(sipho, make_job):
    job = make_job(sipho)
    VerificationJob.objects.filter(pk=job.pk).update(status="FAILED")
    VerificationJobEvent.objects.filter(job=job).delete()  # as before the history existed
    told = make_job(sipho)
    migration = importlib.import_module("verification.migrations.0003_job_status_history_start")
    migration.start_history(apps, None)
    assert history(job) == [("", "FAILED", None, migration.NOTE)]
    assert [row[:2] for row in history(told)] == [("", "PENDING")]  # a job with a history is left alone


def test_verification_s_stored_action_names_do_not_change():
    # old entries keep these names: a rename would split one action's history in two
    assert sorted(events.Action) == [
        "verification.approval_proposed",
        "verification.create",
        "verification.decide",
        "verification.process",
        "verification.queue",
    ]
