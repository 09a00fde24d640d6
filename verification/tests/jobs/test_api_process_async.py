"""POST /verification/process/:jobId?async=true without a broker: 202, the job runs in a thread of the server,
and the status endpoint follows it stage by stage."""

import threading

import pytest

from backoffice import tasks as background
from backoffice.choices import StaffRole
from backoffice.tasks import wait_for_background
from verification.engine import providers
from verification.models import VerificationJob

pytestmark = pytest.mark.django_db(transaction=True)
PROCESS = "/api/v1/verification/process/{}"
STATUS = "/api/v1/verification/status/{}"
STATUS_FIELDS = {
    "jobId",
    "currentStatus",
    "currentStage",
    "progressPercentage",
    "stageProgress",
    "estimatedTimeRemaining",
}


@pytest.fixture
def officer(staff_client):
    return staff_client(StaffRole.COMPLIANCE_OFFICER)[0]


@pytest.fixture
def answered(monkeypatch):
    """A background run's thread starts only once the test has its answer (``answered.set()``): the test database is
    SQLite's shared in-memory one, whose table locks are refused at once rather than waited for, and a run that
    claimed its job while the request still read answered the request 503 (the faster the machine, the more often)."""
    event = threading.Event()
    run_in_thread = background._run_in_thread

    def after_the_answer(*args, **kwargs):
        assert event.wait(60), "the test never said it had its answer"
        return run_in_thread(*args, **kwargs)

    monkeypatch.setattr(background, "_run_in_thread", after_the_answer)
    yield event
    event.set()


@pytest.fixture
def held_at_face_comparison(monkeypatch, answered):
    """``answered``, and the run waits in its face comparison until the test lets it go."""
    provider = providers.get_provider()
    reached, release = threading.Event(), threading.Event()
    compare = provider.compare_faces

    def compare_faces(*args, **kwargs):
        reached.set()
        assert release.wait(60), "the test never let the comparison go"
        return compare(*args, **kwargs)

    monkeypatch.setattr(provider, "compare_faces", compare_faces)
    yield answered, reached, release
    release.set()


def test_async_answers_202_and_the_status_follows_the_run_stage_by_stage(
    officer, sipho, make_job, held_at_face_comparison
):
    answered, reached, release = held_at_face_comparison
    job = make_job(sipho)
    r = officer.post(PROCESS.format(job.pk) + "?async=true")
    answered.set()
    assert r.status_code == 202, r.json()
    body = r.json()
    assert body["success"] is True and set(body["data"]) == STATUS_FIELDS
    assert body["data"]["jobId"] == str(job.pk)
    assert body["data"]["currentStatus"] in ("PENDING", "PROCESSING")

    assert reached.wait(60)
    during = officer.get(STATUS.format(job.pk)).json()["data"]
    assert (during["currentStatus"], during["currentStage"]) == ("PROCESSING", "face_verification")
    assert during["stageProgress"]["ocr_processing"]["status"] == "done"
    assert during["stageProgress"]["face_verification"]["status"] == "running"
    assert 0 < during["progressPercentage"] < 100

    # asked again while it runs: 202 with where it is, and no second run
    again = officer.post(PROCESS.format(job.pk) + "?async=1")
    assert again.status_code == 202 and again.json()["data"]["currentStage"] == "face_verification"

    release.set()
    assert wait_for_background(120)
    after = officer.get(STATUS.format(job.pk)).json()["data"]
    assert (after["currentStatus"], after["currentStage"], after["progressPercentage"]) == (
        "COMPLETED",
        "completed",
        100,
    )
    assert all(stage["status"] == "done" for stage in after["stageProgress"].values())
    assert VerificationJob.objects.get(pk=job.pk).attempts == 1


def test_a_finished_job_answers_its_result_unchanged(officer, sipho, make_job):
    job = make_job(sipho)
    done = officer.post(PROCESS.format(job.pk)).json()["data"]
    r = officer.post(PROCESS.format(job.pk) + "?async=true")
    assert r.status_code == 200 and r.json()["data"] == done
    assert wait_for_background(5)


@pytest.mark.parametrize("value", ["yes", "2", "TRUEISH", ""])
def test_async_takes_only_the_contracts_booleans(officer, sipho, make_job, value):
    job = make_job(sipho)
    r = officer.post(PROCESS.format(job.pk) + f"?async={value}")
    if value == "":
        assert r.status_code == 200  # empty means absent: processed in the request
        return
    assert r.status_code == 400 and r.json()["error"]["details"] == {"async": ["Must be true, false, 1 or 0."]}
    assert VerificationJob.objects.get(pk=job.pk).status == "PENDING"


def test_what_would_fail_at_once_is_answered_in_the_request(officer, sipho, make_job):
    job = make_job(sipho)
    VerificationJob.objects.filter(pk=job.pk).update(selfie=None)
    r = officer.post(PROCESS.format(job.pk) + "?async=true")
    assert r.status_code == 400 and r.json()["message"] == "Required images not found"
    assert wait_for_background(5) and VerificationJob.objects.get(pk=job.pk).status == "PENDING"


def test_an_engine_failure_in_the_background_leaves_the_job_failed_and_processable_again(
    officer, sipho, make_job, monkeypatch, answered
):
    from verification.engine.errors import FaceComparisonFailed

    provider = providers.get_provider()

    def broken(*args, **kwargs):
        raise FaceComparisonFailed("the face model crashed")

    job = make_job(sipho)
    with monkeypatch.context() as patch:
        patch.setattr(provider, "compare_faces", broken)
        assert officer.post(PROCESS.format(job.pk) + "?async=true").status_code == 202
        answered.set()
        assert wait_for_background(120)
    status = officer.get(STATUS.format(job.pk)).json()["data"]
    assert status["currentStatus"] == "FAILED"
    assert status["stageProgress"]["face_verification"]["status"] == "failed"
    answered.clear()
    assert officer.post(PROCESS.format(job.pk) + "?async=true").status_code == 202
    answered.set()
    assert wait_for_background(120)
    assert officer.get(STATUS.format(job.pk)).json()["data"]["currentStatus"] == "COMPLETED"
