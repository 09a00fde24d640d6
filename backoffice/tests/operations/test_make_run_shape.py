"""What ``make run`` serves (scripts/run with nothing set): a server sized from the machine's CPUs, its workers
sharing one set of rate-limit counters through a Redis of its own (one process of threads before, which
queued every payment's decision on one interpreter lock)."""

import os
import re
import shutil
from pathlib import Path

import pytest

from backoffice.tests.servers import ROOT, Script, app_env, children, free_port, http, port_open, wait_until

pytestmark = [pytest.mark.outage, pytest.mark.slow]


@pytest.fixture
def make_run(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    env = app_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        MEDIA_ROOT=str(tmp_path / "media"),
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
    )
    run = Script(env, tmp_path / "run.log", "./scripts/run", "127.0.0.1", str(port))
    run.start()
    run.port = port
    wait_until(lambda: port_open(port), timeout=90, what="scripts/run")
    yield run
    socket = own_redis_socket(run)
    run.stop(timeout=45)  # gunicorn's graceful stop may take its 30 s
    assert not socket.parent.exists()  # its Redis ended with it, and its private directory is gone


def own_redis_socket(run) -> Path:
    """The socket of the Redis scripts/run started, as its log names it."""
    found = re.search(r"a Redis of its own on (\S+)", run.log.read_text())
    assert found, f"scripts/run started no Redis of its own:\n{log_tail(run)}"
    return Path(found.group(1))


def log_tail(run, lines: int = 40) -> str:
    return "\n".join(run.log.read_text(errors="replace").splitlines()[-lines:])


def gunicorn_master(run) -> int:
    for pid in children(run.process.pid):
        if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes():
            return pid
    raise AssertionError("no gunicorn under scripts/run")


def serves(port: int) -> bool:
    try:
        return http("GET", f"http://127.0.0.1:{port}/api/v1/health", timeout=30)[0] == 200
    except OSError:  # the workers are still loading the app (slowly on a loaded machine)
        return False


def test_make_run_serves_with_a_worker_per_cpu_sharing_their_rate_limit_counters(make_run):
    master = gunicorn_master(make_run)
    expected = os.cpu_count()
    wait_until(lambda: len(children(master)) == expected, timeout=90, what=f"{expected} workers")
    try:
        wait_until(lambda: serves(make_run.port), timeout=180, what="the first answer")
    except TimeoutError as timeout:  # what the server said is the only clue a CI run leaves
        raise AssertionError(f"{timeout}; scripts/run's log ends:\n{log_tail(make_run)}") from None
    remaining = []
    for _ in range(3 * expected):
        status, headers, _ = http("GET", f"http://127.0.0.1:{make_run.port}/api/v1/health", timeout=60)
        remaining.append(int(headers["X-RateLimit-Remaining"]))
    # one budget whichever worker answered: each request takes one from the same count
    assert remaining == list(range(remaining[0], remaining[0] - len(remaining), -1))


def test_make_run_keeps_its_redis_socket_outside_the_checkout_within_the_length_a_socket_path_may_have(make_run):
    # a socket under a deep checkout (a CI runner's) passed the limit, and Redis refused to start
    socket = own_redis_socket(make_run)
    assert ROOT not in socket.parents
    assert len(os.fsencode(socket)) < 108
    assert socket.is_socket()
