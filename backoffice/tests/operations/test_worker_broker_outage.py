"""A Celery worker outlives its broker, and `make run` (scripts/run) restarts a worker or beat that ends.

The load run's findings: a worker whose Redis went away could exit for good ("Unrecoverable error"; Celery
gives up on the broker after 100 attempts by default), and nothing started it again, so nothing ran
afterwards. Against a private redis-server the test starts and stops (never the machine's own); every
process is ended by its id.
"""

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from celery import Celery

from backoffice.tests.servers import ROOT, RedisServer, Script, _end, app_env, children, free_port, wait_until

pytestmark = [pytest.mark.outage]

QUEUE = "default"


def send(broker_url: str, label: str) -> str:
    """Send Celery's built-in ``celery.accumulate`` (it needs no database) and return the task id."""
    client = Celery("outage-test", broker=broker_url)
    client.conf.update(task_serializer="json", broker_connection_timeout=5)
    try:
        return client.send_task("celery.accumulate", args=(label,), queue=QUEUE).id
    finally:
        client.close()


def log_text(path: Path) -> str:
    return path.read_text(errors="replace")


def succeeded(log: Path, task_id: str) -> bool:
    return re.search(rf"{re.escape(task_id)}\] succeeded", log_text(log)) is not None


def environment(tmp_path: Path, redis: RedisServer) -> dict:
    return app_env(
        CELERY_BROKER_URL=redis.url,
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        MEDIA_ROOT=str(tmp_path / "media"),
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
        BEAT_SCHEDULE_FILE=str(tmp_path / "celerybeat-schedule"),
        LOG_LEVEL="INFO",
    )


@pytest.fixture
def redis(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def test_a_worker_keeps_retrying_its_broker_and_takes_tasks_again_when_redis_is_back(tmp_path, redis):
    worker = Script(environment(tmp_path, redis), tmp_path / "worker.log", "./scripts/worker", QUEUE, "1", "outage")
    worker.start()
    try:
        wait_until(lambda: "ready" in log_text(worker.log), timeout=120, what="the worker")
        pid = worker.process.pid
        before = send(redis.url, "before")
        wait_until(lambda: succeeded(worker.log, before), timeout=60, what="the task sent before the outage")

        redis.stop()
        wait_until(lambda: "Trying again" in log_text(worker.log), timeout=60, what="the worker retrying its broker")
        time.sleep(8)  # Redis stays down a while: the worker keeps trying instead of exiting
        assert worker.process.poll() is None, log_text(worker.log)[-3000:]
        retries = re.findall(r"Trying again in [^(]*\((\d+)/(\w+)\)", log_text(worker.log))
        assert retries and all(limit == "None" for _, limit in retries), retries  # no attempt is its last

        redis.start()  # the same port, started empty (nothing persisted), as after a crash
        after = send(redis.url, "after")
        wait_until(lambda: succeeded(worker.log, after), timeout=90, what="the task sent after Redis came back")
        assert worker.process.poll() is None and worker.process.pid == pid  # the same process, never restarted
    finally:
        worker.stop()


def descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        for child in children(todo.pop()):
            found.add(child)
            todo.append(child)
    return found


def celery_worker(root: int, hostname: str) -> int | None:
    """The main process of the Celery worker named ``hostname@...`` under ``root`` (not its pool children)."""
    matches = []
    for pid in descendants(root):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"worker" in argv and f"{hostname}@%h".encode() in argv:
            matches.append(pid)
    # the pool's processes are forks of the main one: the main process is the one whose parent is not a match
    mains = [pid for pid in matches if not any(pid in children(other) for other in matches)]
    return mains[0] if mains else None


def test_make_run_starts_a_worker_that_died_again_and_it_takes_tasks(tmp_path, redis):
    log = tmp_path / "run.log"
    with open(log, "ab") as out:
        run = subprocess.Popen(
            ["./scripts/run", "127.0.0.1", str(free_port())],
            cwd=ROOT,
            env=environment(tmp_path, redis),
            stdout=out,
            stderr=out,
        )
    try:
        wait_until(lambda: log_text(log).count(" ready.") >= 2, timeout=180, what="both workers")
        first = celery_worker(run.pid, QUEUE)
        assert first is not None, log_text(log)[-3000:]
        os.kill(first, signal.SIGKILL)  # the kernel's OOM killer, or an exit Celery calls unrecoverable

        wait_until(lambda: "the worker exited" in log_text(log), timeout=30, what="scripts/run noticing")
        wait_until(lambda: log_text(log).count(" ready.") >= 3, timeout=180, what="the worker started again")
        second = celery_worker(run.pid, QUEUE)
        assert second is not None and second != first and run.poll() is None
        task = send(redis.url, "after a restart")
        wait_until(lambda: succeeded(log, task), timeout=90, what="the task sent to the new worker")
        started = descendants(run.pid)
    finally:
        _end(run)
    # stopping scripts/run stopped every worker, beat and gunicorn it started (none left behind)
    wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in started), timeout=30, what="the end")
