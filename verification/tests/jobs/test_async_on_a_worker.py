"""End to end with a real broker: gunicorn, a Celery worker and beat on PostgreSQL and Redis (database 3).

``?async=true`` answers 202 and a worker process runs the job (with the request id of the call that asked);
a pool process killed mid-run gives the job back to the queue and it is picked up again once its claim is
stale; two beats send each period of a periodic task once; the worker's metrics appear in the server's
/metrics.
"""

import itertools
import os
import signal
import subprocess
import time

import psycopg2
import pytest
import redis
import requests
from prometheus_client.parser import text_string_to_metric_families

from backoffice.tests.brokers import BROKER_URL
from backoffice.tests.pgtemplate import migrated_database
from backoffice.tests.servers import Gunicorn, Script, app_env, children, manage, wait_until
from verification.tests.helpers import card, selfie

pytestmark = [pytest.mark.slow, pytest.mark.outage]
DATABASE = "ops"
PG = "postgres://postgres@127.0.0.1:5432/"
BROKER = BROKER_URL
TOKEN = "metrics-token-for-the-tests-0123456789abcdef"
PASSWORD = "Admin-password-for-e2e-1"
STALE = 10
_numbers = itertools.count(1)


def _postgres_available() -> bool:
    try:
        psycopg2.connect(PG + "postgres", connect_timeout=2).close()
        return True
    except psycopg2.OperationalError:
        return False


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    if not _postgres_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    directory = tmp_path_factory.mktemp("e2e")
    (directory / "metrics").mkdir()
    migrated_database(DATABASE)
    broker = redis.Redis.from_url(BROKER)
    broker.flushdb()
    env = app_env(
        DATABASE_URL=PG + DATABASE,
        REDIS_URL=BROKER,
        CELERY_BROKER_URL=BROKER,
        MEDIA_ROOT=str(directory / "media"),
        PROMETHEUS_MULTIPROC_DIR=str(directory / "metrics"),
        METRICS_TOKEN=TOKEN,
        LOG_LEVEL="INFO",
        WEB_CONCURRENCY="1",
        RATE_LIMIT_STANDARD="10000/m",
        VERIFICATION_STALE_CLAIM_SECONDS=str(STALE),
        VERIFICATION_REQUEUE_SECONDS="5",
        BEAT_LOCK_SECONDS="10",
    )
    manage(env, "create_staff", "--email", "admin@ops.test", "--password", PASSWORD, "--role", "admin")
    worker = Script(env, directory / "worker.log", "./scripts/worker", "default,verification", "1", "e2e")
    server = Gunicorn(env, directory / "gunicorn.log")
    worker.start()
    server.start()
    wait_until(
        lambda: (
            any(e.get("message", "").startswith("e2e@") for e in worker.events()) or "ready" in worker.log.read_text()
        ),
        timeout=60,
        what="the worker",
    )
    session = requests.Session()
    login = session.post(
        server.base + "/api/v1/auth/admin/login", json={"email": "admin@ops.test", "password": PASSWORD}
    )
    assert login.status_code == 200, login.text
    session.headers["Authorization"] = "Bearer " + login.json()["data"]["accessToken"]
    try:
        yield {"env": env, "server": server, "worker": worker, "session": session, "directory": directory}
    finally:
        server.stop()
        worker.stop()
        broker.flushdb()
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DATABASE], check=False)


def new_user(env) -> str:
    # each shell is a new process, where the factory's sequences start again: the numbers are made here
    n = next(_numbers)
    script = (
        "from kyc.tests.factories import PlatformUserFactory;"
        f"print(PlatformUserFactory(first_name='Sipho', last_name='Dlamini', phone_number='+26876{n:06d}',"
        f" email='e2e{n}@ops.test', referral_code='E2E{n:05d}').pk)"
    )
    return manage(env, "shell", "-c", script).stdout.strip().splitlines()[-1]


def new_job(stack) -> str:
    files = {"idFront": ("front.png", card(), "image/png"), "selfie": ("selfie.jpg", selfie(), "image/jpeg")}
    r = stack["session"].post(
        stack["server"].base + "/api/v1/verification/jobs", data={"userId": new_user(stack["env"])}, files=files
    )
    assert r.status_code == 201, r.text
    return r.json()["data"]["jobId"]


def status(stack, job_id: str) -> dict:
    r = stack["session"].get(stack["server"].base + f"/api/v1/verification/status/{job_id}")
    assert r.status_code == 200, r.text
    return r.json()["data"]


def finished(stack, job_id: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = status(stack, job_id)
        if data["currentStatus"] in ("COMPLETED", "REJECTED", "FAILED"):
            return data
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish: {data}")


def attempts(job_id: str) -> int:
    with psycopg2.connect(PG + DATABASE) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT attempts FROM verification_verificationjob WHERE id = %s", [job_id])
        return cursor.fetchone()[0]


def scrape(stack) -> dict:
    r = requests.get(stack["server"].base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200
    return {family.name: family for family in text_string_to_metric_families(r.text)}


def value(families, family: str, sample: str, **labels) -> float:
    return sum(s.value for s in families[family].samples if s.name == sample and s.labels.items() >= labels.items())


def test_the_worker_runs_the_job_with_the_request_id_of_the_call(stack):
    job_id = new_job(stack)
    r = stack["session"].post(
        stack["server"].base + f"/api/v1/verification/process/{job_id}?async=true",
        headers={"X-Request-ID": "e2e-call-1"},
    )
    assert r.status_code == 202, r.text
    assert r.headers["X-Request-ID"] == "e2e-call-1" and r.json()["data"]["jobId"] == job_id
    done = finished(stack, job_id)
    assert (done["currentStatus"], done["currentStage"], done["progressPercentage"]) == ("COMPLETED", "completed", 100)
    ran = [e for e in stack["worker"].events() if e.get("task") == "verification.process_job"]
    assert ran and all(e["request_id"] == "e2e-call-1" for e in ran)
    assert any(e["message"] == "task ended" and e["state"] == "SUCCESS" for e in ran)
    assert attempts(job_id) == 1
    # the worker's figures are in the server's /metrics (one directory for the machine's processes)
    families = scrape(stack)
    assert (
        value(
            families,
            "vikela_task_duration_seconds",
            "vikela_task_duration_seconds_count",
            task="verification.process_job",
            outcome="success",
        )
        >= 1
    )
    assert (
        value(
            families,
            "vikela_verification_duration_seconds",
            "vikela_verification_duration_seconds_count",
            outcome="approved",
        )
        >= 1
    )
    assert value(families, "vikela_verification_jobs", "vikela_verification_jobs", status="COMPLETED") >= 1
    assert {s.labels["queue"] for s in families["vikela_queue_depth"].samples} == {"default", "verification"}


def test_a_job_whose_worker_process_died_is_picked_up_again(stack):
    job_id = new_job(stack)
    pool = children(stack["worker"].process.pid)
    assert (
        stack["session"].post(stack["server"].base + f"/api/v1/verification/process/{job_id}?async=true").status_code
        == 202
    )
    wait_until(lambda: status(stack, job_id)["currentStatus"] == "PROCESSING", timeout=60, what="the run")
    for pid in pool:
        os.kill(pid, signal.SIGKILL)  # the pool process dies mid-run, its claim on the job stays behind
    done = finished(stack, job_id, timeout=STALE * 6 + 60)
    assert done["currentStatus"] == "COMPLETED"
    assert attempts(job_id) == 2  # the second run took over the dead one's stale claim


def test_two_beats_send_each_period_once(stack):
    directory = stack["directory"]
    beats = [
        Script(
            {**stack["env"], "BEAT_SCHEDULE_FILE": str(directory / f"beat-{n}")},
            directory / f"beat-{n}.log",
            "./scripts/beat",
        )
        for n in range(2)
    ]
    for beat in beats:
        beat.start()
    try:

        def periods():
            return [
                e["period"]
                for e in stack["worker"].events()
                if e.get("task") == "verification.requeue_stale_jobs" and e["message"] == "task started"
            ]

        wait_until(lambda: len(set(periods())) >= 3, timeout=60, what="three periods of the stale-job sweep")
    finally:
        for beat in beats:
            beat.stop()
    sent = periods()
    assert len(sent) == len(set(sent)), sent  # no period ran twice
    said = [e["message"] for beat in beats for e in beat.events() if e.get("logger") == "backoffice.beat"]
    assert any(m.endswith(" leads") for m in said) and any(m.endswith(" stands by") for m in said)
