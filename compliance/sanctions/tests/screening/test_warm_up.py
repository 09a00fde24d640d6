"""The sanctions and PEP name indexes are built once per server process when it starts, never by the app's set-up
(tests, management commands): a server's first decision with a counterparty name waits for no build."""

import time
import uuid

import psycopg2
import pytest

from backoffice.http import warmup
from backoffice.tests.pgtemplate import drop_database, migrated_database
from backoffice.tests.servers import Gunicorn, app_env, manage
from compliance.sanctions.selectors import screening as selectors
from compliance.sanctions.tests.helpers import import_file
from names.index import NameIndex

PG = "postgres://postgres@127.0.0.1:5432/"
DONE = "warm-up sanctions_index done"


@pytest.mark.django_db
def test_setting_the_app_up_builds_no_index_and_the_warm_up_builds_it_once(monkeypatch):
    assert warmup._warmed_pid is None  # django.setup() and the apps' ready() warmed nothing up
    import_file("UN", "un-small-v1.xml")
    selectors.sanctions_index_reset()
    builds = []
    real = NameIndex.build.__func__
    monkeypatch.setattr(NameIndex, "build", classmethod(lambda cls, *a, **k: builds.append(1) or real(cls, *a, **k)))
    monkeypatch.setattr(warmup, "_warmed_pid", None)
    warmup.warm_up_process(background=False)
    # the sanctions entries' index (and the PEPs', unless an earlier test of this process built it already)
    assert builds and selectors._index._holder._index is not None
    built = len(builds)
    warmup.warm_up_process(background=False)
    assert selectors.screen_name("nothing like a listed name") == []
    assert len(builds) == built


def _log_lines(path, text: str) -> list[str]:
    return [line for line in path.read_text(errors="replace").splitlines() if text in line]


@pytest.mark.slow
@pytest.mark.outage
@pytest.mark.postgres
def test_each_gunicorn_worker_warms_up_once_and_a_management_command_never(tmp_path):
    try:
        psycopg2.connect(PG + "postgres", connect_timeout=2).close()
    except psycopg2.OperationalError:
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    database = f"warmup_{uuid.uuid4().hex[:8]}"
    migrated_database(database)
    server = None
    try:
        env = app_env(
            DATABASE_URL=PG + database,
            REDIS_URL="redis://127.0.0.1:6379/9",
            MEDIA_ROOT=str(tmp_path / "media"),
            PROMETHEUS_MULTIPROC_DIR=str(tmp_path),
            WEB_CONCURRENCY="2",
            GUNICORN_THREADS="2",
            LOG_LEVEL="INFO",
            LOG_FORMAT="json",
        )
        script = "from compliance.sanctions.tests.helpers import import_file; import_file('UN', 'un-small-v1.xml')"
        command = manage(env, "shell", "-c", script)
        assert "warm-up" not in command.stdout + command.stderr
        server = Gunicorn(env, tmp_path / "gunicorn.log")
        server.start()
        deadline = time.monotonic() + 120
        while len(_log_lines(server.log, DONE)) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(2)  # a third warm-up, were there one, would have come by now
        done = _log_lines(server.log, DONE)
        assert len(done) == 2, server.log.read_text()[-3000:]
        assert len({line.rsplit("in process", 1)[1] for line in done}) == 2  # one per worker
    finally:
        if server is not None:
            server.stop()
        drop_database(database)
