"""DATABASE_REPLICA_URL through a real gunicorn on PostgreSQL: GET lists read the replica, writes and the
writer's own reads right after stay on the primary.

The "replica" is a copy of the primary made with CREATE DATABASE ... TEMPLATE and never updated: a replica
that lags forever, so every read shows which database answered it.
"""

import subprocess

import psycopg2
import pytest
import requests

from backoffice.tests.brokers import BROKER_URL
from backoffice.tests.pgtemplate import migrated_database
from backoffice.tests.servers import Gunicorn, app_env, manage

pytestmark = [pytest.mark.slow, pytest.mark.outage]
PG = "postgres://postgres@127.0.0.1:5432/"
PRIMARY, REPLICA = "ops_primary", "ops_replica"
PASSWORD = "Admin-password-for-e2e-1"


def _db(*args: str) -> None:
    subprocess.run([*args[:1], "-h", "127.0.0.1", "-U", "postgres", *args[1:]], check=True, capture_output=True)


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    try:
        psycopg2.connect(PG + "postgres", connect_timeout=2).close()
    except psycopg2.OperationalError:
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    directory = tmp_path_factory.mktemp("replica")
    _db("dropdb", "--if-exists", REPLICA)
    migrated_database(PRIMARY)
    env = app_env(
        DATABASE_URL=PG + PRIMARY,
        REDIS_URL=BROKER_URL,
        MEDIA_ROOT=str(directory / "media"),
        PROMETHEUS_MULTIPROC_DIR=str(directory),
        RATE_LIMIT_STANDARD="10000/m",
        DB_CONN_MAX_AGE="0",
    )
    for who in ("writer", "reader"):
        manage(env, "create_staff", "--email", f"{who}@ops.test", "--password", PASSWORD, "--role", "admin")
    script = (
        "from kyc.tests.factories import PlatformUserFactory;"
        "print(PlatformUserFactory(first_name='Before', last_name='Copy', referral_code='REPL0001').pk)"
    )
    user_id = manage(env, "shell", "-c", script).stdout.strip().splitlines()[-1]
    _db("createdb", "-T", PRIMARY, REPLICA)
    gunicorn = Gunicorn({**env, "DATABASE_REPLICA_URL": PG + REPLICA}, directory / "gunicorn.log")
    gunicorn.start()
    sessions = {}
    for who in ("writer", "reader"):
        session = requests.Session()
        r = session.post(
            gunicorn.base + "/api/v1/auth/admin/login", json={"email": f"{who}@ops.test", "password": PASSWORD}
        )
        assert r.status_code == 200, r.text
        session.headers["Authorization"] = "Bearer " + r.json()["data"]["accessToken"]
        sessions[who] = session
    try:
        yield gunicorn, sessions, user_id
    finally:
        gunicorn.stop()
        for name in (REPLICA, PRIMARY):
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name], check=False)


def test_reads_go_to_the_replica_and_the_writers_next_reads_to_the_primary(servers):
    gunicorn, sessions, user_id = servers
    url = f"{gunicorn.base}/api/v1/admin/users/{user_id}"
    r = sessions["writer"].put(url, json={"firstName": "After"})
    assert r.status_code == 200 and r.json()["data"]["firstName"] == "After"  # the write and its answer: primary
    # the writer reads its own write back (pinned to the primary for a while)
    assert sessions["writer"].get(url).json()["data"]["firstName"] == "After"
    listed = sessions["writer"].get(gunicorn.base + "/api/v1/admin/users").json()["data"]
    assert [u["firstName"] for u in listed if u["id"] == user_id] == ["After"]
    # someone else's GETs read the replica, which has not caught up
    assert sessions["reader"].get(url).json()["data"]["firstName"] == "Before"
    listed = sessions["reader"].get(gunicorn.base + "/api/v1/admin/users").json()["data"]
    assert [u["firstName"] for u in listed if u["id"] == user_id] == ["Before"]
    # readiness asks the replica too
    ready = requests.get(gunicorn.base + "/api/v1/health/ready").json()
    assert ready["data"]["replica"] == "ok" and ready["data"]["database"] == "ok"


def test_nothing_is_written_to_the_replica(servers):
    with psycopg2.connect(PG + REPLICA) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM backoffice_auditlog WHERE action LIKE 'user.%%'")
        assert cursor.fetchone()[0] == 0
    with psycopg2.connect(PG + PRIMARY) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM backoffice_auditlog WHERE action LIKE 'user.%%'")
        assert cursor.fetchone()[0] >= 1
