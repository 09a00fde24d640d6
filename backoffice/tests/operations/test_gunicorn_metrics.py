"""scripts/serve with two gunicorn workers: metrics add up across processes, dead workers leave no live gauge,
every log line is one JSON event, every response has a request id."""

import json
import os
import signal
import time
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from backoffice.tests.brokers import BROKER_URL
from backoffice.tests.servers import Gunicorn, app_env, http, raw_request, wait_until

pytestmark = [pytest.mark.outage, pytest.mark.slow]
TOKEN = "metrics-token-for-the-tests-0123456789abcdef"
GONE_PID = 4_194_304 + 1000  # above the largest pid_max Linux allows: a file of a process that is gone


def workers_of(master: int) -> set[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return {int(pid) for pid in children}


@pytest.fixture
def server(tmp_path):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    (metrics_dir / f"gauge_livesum_{GONE_PID}.db").write_bytes(b"left by an earlier run")
    env = app_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        MEDIA_ROOT=str(tmp_path / "media"),
        REDIS_URL=BROKER_URL,
        WEB_CONCURRENCY="2",
        GUNICORN_THREADS="2",
        PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
        METRICS_TOKEN=TOKEN,
        LOG_LEVEL="INFO",
        RATE_LIMIT_STANDARD="10000/m",
    )
    gunicorn = Gunicorn(env, tmp_path / "gunicorn.log")
    gunicorn.start()
    wait_until(lambda: len(workers_of(gunicorn.process.pid)) == 2, what="two gunicorn workers")
    gunicorn.metrics_dir = metrics_dir
    yield gunicorn
    gunicorn.stop()


def scrape(server) -> dict:
    status, _, body = http("GET", server.base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert status == 200, body
    return {family.name: family for family in text_string_to_metric_families(body.decode())}


def health_count(families: dict) -> float:
    samples = families["vikela_http_request_duration_seconds"].samples
    return sum(
        s.value
        for s in samples
        if s.name.endswith("_count") and s.labels["route"] == "/api/v1/health" and s.labels["status"] == "200"
    )


def test_counts_add_up_across_workers_and_survive_a_killed_one(server):
    assert not (server.metrics_dir / f"gauge_livesum_{GONE_PID}.db").exists()  # cleaned at start
    for _ in range(15):
        assert http("GET", server.base + "/api/v1/health")[0] == 200
    first = workers_of(server.process.pid)
    victim = next(pid for pid in first if (server.metrics_dir / f"histogram_{pid}.db").exists())
    assert (server.metrics_dir / f"gauge_livesum_{victim}.db").exists()
    os.kill(victim, signal.SIGKILL)
    wait_until(lambda: len(workers_of(server.process.pid) - first) == 1, what="a replacement worker")
    # the dead worker's live gauge went with it; what it counted stays counted
    wait_until(lambda: not (server.metrics_dir / f"gauge_livesum_{victim}.db").exists(), what="child_exit")
    assert (server.metrics_dir / f"histogram_{victim}.db").exists()
    for _ in range(15):
        assert http("GET", server.base + "/api/v1/health")[0] == 200
    families = scrape(server)
    assert health_count(families) == 30
    in_progress = families["vikela_http_requests_in_progress"].samples
    assert [s.value for s in in_progress] == [1.0]  # the scrape itself, in whichever worker answered


def test_every_response_has_a_request_id_and_every_log_line_is_one_json_event(server):
    status, headers, _ = http("GET", server.base + "/api/v1/health", headers={"X-Request-ID": "probe-42"})
    assert status == 200 and headers["X-Request-ID"] == "probe-42"
    assert len(http("GET", server.base + "/api/v1/health")[1]["X-Request-ID"]) == 32
    refused = raw_request(server.port, b"NONSENSE\r\n\r\n")  # gunicorn answers this one itself
    assert b"\r\nX-Request-ID: " in refused.split(b"\r\n\r\n")[0]
    time.sleep(0.5)  # the log lines of the requests above are written after their responses
    lines = server.log.read_text().splitlines()
    events = [json.loads(line) for line in lines]  # every line, gunicorn's own included
    assert any(e.get("logger") == "gunicorn.error" for e in events)
    mine = [e for e in events if e.get("request_id") == "probe-42"]
    assert mine and mine[0]["route"] == "/api/v1/health" and mine[0]["status"] == 200
