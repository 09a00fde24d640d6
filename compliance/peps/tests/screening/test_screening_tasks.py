"""PEP screening in chunks, as the background tasks run it (in-process here: no broker in the tests).

A run records its PEPs and how many chunks are done; a chunk's matches, alerts and progress commit together,
so a chunk delivered twice changes nothing, a run cut short resumes where it stopped, and beat's re-screening
never starts a second periodic run while one is going.
"""

import datetime as dt

import pytest
from django.utils import timezone
from prometheus_client import REGISTRY

from backoffice.celery import app as celery_app
from backoffice.ops import periodic
from compliance.aml.models.alerts import Alert
from compliance.peps import tasks
from compliance.peps.models.pep import PEP, PEPMatch, ScreeningRun
from compliance.peps.selectors.pep import pending_peps
from compliance.peps.services import screening
from compliance.peps.tests.helpers import add_pep, make_user
from kyc.models import PlatformUser

pytestmark = pytest.mark.django_db

NAMES = [
    ("Lurano", "Vetsikali"),
    ("Bhekizulu", "Mavimbela"),
    ("Tholakele", "Ngcamphalala"),
    ("Sindisiwe", "Magagula"),
    ("Mcolisi", "Hlophekazi"),
]


@pytest.fixture
def small_chunks(settings):
    settings.PEP_SCREENING_CHUNK = 2


@pytest.fixture
def pending(small_chunks):
    """Five PEPs never screened against the five users who bear their names (added after them)."""
    peps = [add_pep(f"{first} {last}").pep for first, last in NAMES]
    users = [make_user(first, last) for first, last in NAMES]
    PEP.objects.update(screened_hash="")
    return peps, users


def state() -> dict:
    """Everything a chunk writes, to compare before and after a repeat."""
    return {
        "matches": sorted(PEPMatch.objects.values_list("user_id", "pep_name_key", "status", "risk_points")),
        "alerts": sorted(Alert.objects.values_list("dedup_key", flat=True)),
        "risk": sorted(PlatformUser.objects.values_list("pk", "current_risk_score", "is_potential_pep")),
        "runs": list(
            ScreeningRun.objects.order_by("pk").values_list(
                "pk", "status", "chunks_done", "peps_screened", "matches", "alerts_created", "users_matched"
            )
        ),
    }


def test_a_run_in_the_background_does_every_chunk_and_records_its_totals(pending, django_capture_on_commit_callbacks):
    peps, users = pending
    with django_capture_on_commit_callbacks(execute=True):
        summary = screening.screen_pending(background=True)
    run = ScreeningRun.objects.get(pk=summary.run_id)
    assert (run.status, run.chunks_total, run.chunks_done) == ("COMPLETED", 3, 3)
    assert (run.peps_screened, run.matches, run.users_matched, run.alerts_created) == (5, 5, 5, 5)
    assert sorted(run.matched_user_ids) == sorted(str(u.pk) for u in users)
    assert PEPMatch.objects.count() == 5 and Alert.objects.filter(alert_type="PEP_MATCH").count() == 5
    assert not pending_peps().exists()


def test_a_chunk_delivered_twice_changes_nothing_the_second_time(pending):
    run = screening.screening_start(pep_ids=[p.pk for p in pending[0]], trigger="PENDING")
    assert screening.screening_chunk(run_id=run.pk, index=0) is not None
    once = state()
    assert once["runs"][-1][2] == 1 and len(once["matches"]) == 2
    assert screening.screening_chunk(run_id=run.pk, index=0) is None
    assert tasks.screen_chunk.apply((run.pk, 0)).get() == "SKIPPED"
    assert state() == once


def test_a_chunk_ahead_of_the_run_waits_for_its_turn(pending):
    run = screening.screening_start(pep_ids=[p.pk for p in pending[0]], trigger="PENDING")
    assert screening.screening_chunk(run_id=run.pk, index=1) is None
    assert PEPMatch.objects.count() == 0


def test_the_task_goes_on_from_where_the_run_stopped(pending):
    run = screening.screening_start(pep_ids=[p.pk for p in pending[0]], trigger="PENDING")
    screening.screening_chunk(run_id=run.pk, index=0)  # then the worker died
    assert tasks.screen_chunk.apply((run.pk, 1)).get() == "COMPLETED"
    run.refresh_from_db()
    assert (run.status, run.chunks_done, run.matches, run.alerts_created) == ("COMPLETED", 3, 5, 5)
    assert Alert.objects.filter(alert_type="PEP_MATCH").count() == 5


def test_re_screening_resumes_a_stalled_run_and_starts_none_beside_a_running_one(pending):
    run = screening.screening_start(pep_ids=[p.pk for p in pending[0]], trigger="PERIODIC")
    screening.screening_chunk(run_id=run.pk, index=0)
    # a periodic run still making progress: no second run, nothing resumed
    assert tasks.rescreen.apply().get() is None
    assert ScreeningRun.objects.filter(trigger="PERIODIC").count() == 1
    ScreeningRun.objects.filter(pk=run.pk).update(progressed_at=timezone.now() - dt.timedelta(hours=1))
    assert tasks.rescreen.apply().get() is None  # resumed it; nothing is left pending to start a new one with
    run.refresh_from_db()
    assert (run.status, run.chunks_done, run.alerts_created) == ("COMPLETED", 3, 5)
    assert ScreeningRun.objects.filter(trigger="PERIODIC").count() == 1


def test_re_screening_screens_what_is_pending_in_a_run_of_its_own(pending, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # a worker runs it outside any transaction
        run_id = tasks.rescreen.apply().get()
    run = ScreeningRun.objects.get(pk=run_id)
    assert (run.trigger, run.status, run.peps_screened) == ("PERIODIC", "COMPLETED", 5)
    assert tasks.rescreen.apply().get() is None  # nothing pending any more


def test_a_chunk_that_fails_for_good_fails_the_run_and_leaves_its_peps_pending(pending, monkeypatch):
    run = screening.screening_start(pep_ids=[p.pk for p in pending[0]], trigger="PENDING")

    def broken(*args, **kwargs):
        raise ValueError("matcher exploded")

    monkeypatch.setattr(screening, "_users_matching", broken)
    result = tasks.screen_chunk.apply((run.pk, 0))
    assert result.failed()
    run.refresh_from_db()
    assert run.status == "FAILED" and "matcher exploded" in run.error and run.chunks_done == 0
    assert pending_peps().count() == 5 and PEPMatch.objects.count() == 0


def test_screening_durations_are_measured_by_trigger_and_outcome(pending):
    labels = {"trigger": "PENDING", "outcome": "completed"}
    before = REGISTRY.get_sample_value("vikela_pep_screening_duration_seconds_count", labels) or 0
    screening.screen_pending()
    assert REGISTRY.get_sample_value("vikela_pep_screening_duration_seconds_count", labels) == before + 1


def test_an_inline_run_lists_its_matches_as_before(pending):
    summary = screening.screen_pending()
    assert summary.pairs == 5 and len(summary.matches) == 5 and summary.alerts_created == 5
    assert ScreeningRun.objects.get(pk=summary.run_id).chunks_done == 3


def test_a_run_whose_worker_died_comes_back_within_the_stale_time_and_one_sweep(pending, settings):
    """Its chunk went with the worker: Redis hands it back after the visibility timeout (30 min), the hourly
    re-screen later still; beat's sweep sends it again once the run has been stale for the time set."""
    entry = periodic.entries()["pep-resume-stale"]
    assert entry.every == settings.PEP_SCREENING_SWEEP_SECONDS == 60
    run = screening.screening_start(pep_ids=[p.pk for p in pending[0]], trigger="PENDING")
    screening.screening_chunk(run_id=run.pk, index=0)  # then the worker died holding chunk 1
    assert celery_app.tasks[entry.task].apply().get() == []  # not stale yet: a slow run is left alone
    stale = timezone.now() - dt.timedelta(seconds=settings.PEP_SCREENING_STALE_SECONDS + 1)
    ScreeningRun.objects.filter(pk=run.pk).update(progressed_at=stale)
    assert celery_app.tasks[entry.task].apply().get() == [run.pk]
    run.refresh_from_db()
    assert (run.status, run.chunks_done, run.alerts_created) == ("COMPLETED", 3, 5)


def test_re_screening_is_registered_with_beat():
    entry = periodic.entries()["pep-rescreen"]
    assert entry.task == tasks.rescreen.name and entry.every >= 60


def test_with_a_broker_a_large_bulk_upload_answers_with_its_run_and_queues_the_first_chunk(
    redis_broker, officer_api, settings, small_chunks, django_capture_on_commit_callbacks
):
    settings.PEP_SCREEN_INLINE_MAX = 3
    body = {"peps": [{"name": f"{first} {last}", "category": "Judge"} for first, last in NAMES]}
    with django_capture_on_commit_callbacks(execute=True):
        response = officer_api.post("/api/v1/admin/aml/pep/bulk", body, format="json")
    assert response.status_code == 201, response.json()
    matching = response.json()["data"]["matching"]
    run = ScreeningRun.objects.get(pk=matching["screeningRunId"])
    assert (run.status, run.chunks_total, run.chunks_done) == ("RUNNING", 3, 0)
    assert matching["alertsCreated"] == 0 and matching["matches"] == []
    assert redis_broker.llen("default") == 1  # chunk 0, for a worker; it sends the next


def test_with_a_broker_a_small_bulk_upload_is_screened_in_the_request(
    redis_broker, officer_api, settings, django_capture_on_commit_callbacks
):
    settings.PEP_SCREEN_INLINE_MAX = 10
    make_user("Lurano", "Vetsikali")
    with django_capture_on_commit_callbacks(execute=True):
        response = officer_api.post(
            "/api/v1/admin/aml/pep/bulk", {"peps": [{"name": "Lurano Vetsikali"}]}, format="json"
        )
    assert response.json()["data"]["matching"]["alertsCreated"] == 1
    assert redis_broker.llen("default") == 0
