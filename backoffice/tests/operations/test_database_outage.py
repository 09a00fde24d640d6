"""PostgreSQL down, frozen or locked: every endpoint answers 503 SERVICE_UNAVAILABLE in the envelope, in
seconds; after a restart no request fails on a stale connection. Against a private cluster (initdb) and
gunicorn the test starts; never the shared one.
"""

import json
import re

import psycopg2
import pytest

from backoffice.tests.servers import Gunicorn, PostgresCluster, app_env, http, manage

pytestmark = pytest.mark.outage
EMAIL, PASSWORD = "outage-admin@example.com", "Outage-Passw0rd!x"
THREADS = 8
# short deadlines, so a frozen or locked database costs the test seconds: a reply is awaited at most
# STATEMENT + CONNECT seconds, a connection CONNECT seconds, a lock LOCK seconds
STATEMENT, LOCK, CONNECT = 2, 1, 2
# a request that does not answer in this long is held by the database: the failure these tests look for
HELD = 10


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    directory = tmp_path_factory.mktemp("pg")
    cluster = PostgresCluster()
    cluster.start()
    gunicorn = None
    try:
        cluster.create_database()
        # the test calls every operation in about a minute: more than the standard budget, which is not its subject
        env = app_env(DATABASE_URL=cluster.url(), MEDIA_ROOT=str(directory / "media"), RATE_LIMIT_STANDARD="100000/m")
        manage(env, "migrate", "--noinput")
        manage(env, "create_staff", "--email", EMAIL, "--password", PASSWORD, "--role", "admin")
        deadlines = {
            "DB_STATEMENT_TIMEOUT": str(STATEMENT),
            "DB_LOCK_TIMEOUT": str(LOCK),
            "DB_CONNECT_TIMEOUT": str(CONNECT),
        }
        gunicorn = Gunicorn({**env, **deadlines}, directory / "gunicorn.log")
        gunicorn.start()
        yield cluster, gunicorn
    finally:
        if gunicorn is not None:
            gunicorn.stop()
        cluster.remove()


def call(gunicorn, method, path, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, response_headers, raw = http(method, gunicorn.base + path, body=body, headers=headers, timeout=HELD)
    assert response_headers.get("Content-Type") == "application/json", (method, path, status, raw[:200])
    return status, json.loads(raw)


def sign_in(gunicorn) -> str:
    status, body = call(
        gunicorn, "POST", "/api/v1/auth/admin/login", body=json.dumps({"email": EMAIL, "password": PASSWORD}).encode()
    )
    assert status == 200, body
    return body["data"]["accessToken"]


def every_thread_holds_a_connection(gunicorn, token) -> None:
    for _ in range(THREADS * 2):
        assert call(gunicorn, "GET", "/api/v1/admin/me", token)[0] == 200


def test_a_restart_between_requests_breaks_no_request(stack):
    cluster, gunicorn = stack
    token = sign_in(gunicorn)
    every_thread_holds_a_connection(gunicorn, token)
    cluster.stop()
    cluster.start()
    # each thread's persistent connection died with the server; CONN_HEALTH_CHECKS replaces it before use
    statuses = [call(gunicorn, "GET", "/api/v1/admin/users", token)[0] for _ in range(THREADS * 2)]
    assert statuses == [200] * (THREADS * 2)


def test_while_the_database_is_down_every_endpoint_answers_503_in_the_envelope(stack):
    cluster, gunicorn = stack
    token = sign_in(gunicorn)
    schema = json.loads(http("GET", gunicorn.base + "/api/schema/?format=json")[2])
    cluster.stop()
    try:
        status, body = call(gunicorn, "GET", "/api/v1/health")
        assert status == 503 and body["data"]["database"] == "error"
        for path, item in schema["paths"].items():
            for method, operation in item.items():
                # a path parameter named after itself (no such record), or 1 where the route takes digits
                integers = {
                    p["name"] for p in operation.get("parameters", []) if p.get("schema", {}).get("type") == "integer"
                }
                url = re.sub(r"\{(\w+)\}", lambda m, digits=integers: "1" if m[1] in digits else m[1], path)
                status, body = call(gunicorn, method.upper(), url, token, body=b"{}" if method != "get" else None)
                assert status != 500 and body["success"] is False, (method, path, status, body)
                if operation.get("security"):  # signing in needs the database: nothing gets past that
                    assert (status, body["error"]["code"]) == (503, "SERVICE_UNAVAILABLE"), (method, path, body)
    finally:
        cluster.start()
    assert call(gunicorn, "GET", "/api/v1/admin/me", token)[0] == 200


def test_while_the_database_is_frozen_requests_answer_503_in_seconds_not_for_as_long_as_it_is_frozen(stack):
    cluster, gunicorn = stack
    token = sign_in(gunicorn)
    every_thread_holds_a_connection(gunicorn, token)  # open sessions, which a frozen server leaves hanging
    cluster.freeze()
    try:
        # the server cannot cancel anything: the client's own deadline ends the wait (a hang fails at HELD s)
        for path in ("/api/v1/admin/me", "/api/v1/admin/users", "/api/v1/admin/me"):
            status, body = call(gunicorn, "GET", path, token)
            assert (status, body["error"]["code"]) == (503, "SERVICE_UNAVAILABLE"), (path, body)
        status, body = call(gunicorn, "GET", "/api/v1/health")
        assert status == 503 and body["data"]["database"] == "error"
    finally:
        cluster.thaw()
    statuses = [call(gunicorn, "GET", "/api/v1/admin/me", token)[0] for _ in range(THREADS * 2)]
    assert statuses == [200] * (THREADS * 2)


def test_while_a_table_is_locked_requests_that_need_it_answer_503_in_seconds(stack):
    cluster, gunicorn = stack
    token = sign_in(gunicorn)
    holder = psycopg2.connect(cluster.url())  # a migration, or a transaction stuck half-way
    try:
        with holder.cursor() as cursor:
            cursor.execute("LOCK TABLE backoffice_staff IN ACCESS EXCLUSIVE MODE")
        # signing the request in reads the staff table: the server gives up waiting for the lock
        status, body = call(gunicorn, "GET", "/api/v1/admin/me", token)
        assert (status, body["error"]["code"]) == (503, "SERVICE_UNAVAILABLE")
        assert call(gunicorn, "GET", "/api/v1/health")[0] == 200  # what does not need the table is served
    finally:
        holder.close()
    assert call(gunicorn, "GET", "/api/v1/admin/me", token)[0] == 200


@pytest.fixture
def default_deadlines(stack, tmp_path):
    """A second gunicorn on the same cluster with the deadlines a deployment gets by default (15 s, 5 s, 5 s)."""
    cluster, _ = stack
    env = app_env(DATABASE_URL=cluster.url(), MEDIA_ROOT=str(tmp_path / "media"), RATE_LIMIT_STANDARD="100000/m")
    gunicorn = Gunicorn(env, tmp_path / "gunicorn.log")
    gunicorn.start()
    yield cluster, gunicorn
    gunicorn.stop()


# what the README promises a frozen database costs: readiness a few seconds (DB_HEALTH_CHECK_SECONDS, 2), a
# request at most the statement timeout plus the connect timeout (20 s); a little more for a loaded machine
READY_WITHIN, REQUEST_WITHIN = 5, 23


def test_under_a_frozen_database_with_default_deadlines_readiness_answers_in_seconds(default_deadlines):
    cluster, gunicorn = default_deadlines
    token = sign_in(gunicorn)
    every_thread_holds_a_connection(gunicorn, token)  # persistent connections, each checked before reuse
    cluster.freeze()
    try:
        for _ in range(3):  # whichever thread answers, with its connection or a new one
            status, headers, raw = http("GET", gunicorn.base + "/api/v1/health/ready", timeout=READY_WITHIN)
            assert status == 503 and json.loads(raw)["data"]["database"] == "error"
        status, _, raw = http(
            "GET",
            gunicorn.base + "/api/v1/admin/me",
            headers={"Authorization": f"Bearer {token}"},
            timeout=REQUEST_WITHIN,
        )
        assert (status, json.loads(raw)["error"]["code"]) == (503, "SERVICE_UNAVAILABLE")
    finally:
        cluster.thaw()
    assert http("GET", gunicorn.base + "/api/v1/health/ready", timeout=READY_WITHIN)[0] == 200
