"""The database deadlines: the server's statement and lock timeouts, and the client's own for a frozen server.

The outage tests (test_database_outage) freeze and lock a real cluster behind gunicorn; these check the
settings and the client's deadline on its own.
"""

import importlib
import socket
import threading

import psycopg2
import pytest
from django.core.exceptions import ImproperlyConfigured

from backoffice.ops import db_deadline
from backoffice.settings import database

PG = "postgres://postgres@127.0.0.1:5432/vikela"


@pytest.fixture
def reload_with(monkeypatch):
    """reload_with(**environment) -> the database settings module as start-up would compute it."""

    def reload(**environment):
        for name in ("DB_STATEMENT_TIMEOUT", "DB_LOCK_TIMEOUT", "DB_CONNECT_TIMEOUT"):
            monkeypatch.delenv(name, raising=False)
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        return importlib.reload(database)

    yield reload
    monkeypatch.undo()
    importlib.reload(database)


def test_every_postgresql_session_has_statement_and_lock_timeouts_by_default(reload_with):
    settings = reload_with(DATABASE_URL=PG)
    assert settings.DATABASES["default"]["OPTIONS"]["options"] == "-c statement_timeout=15000 -c lock_timeout=5000"
    assert settings.DB_ANSWER_DEADLINE == 15 + 5  # the statement timeout, then as long as a connection may take


def test_the_timeouts_come_from_the_environment_after_any_the_url_gives(reload_with):
    settings = reload_with(
        DATABASE_URL=PG + "?options=-c%20statement_timeout%3D999", DB_STATEMENT_TIMEOUT="3", DB_LOCK_TIMEOUT="1"
    )
    options = settings.DATABASES["default"]["OPTIONS"]["options"]
    assert options.endswith("-c statement_timeout=3000 -c lock_timeout=1000")  # the last one given wins
    assert settings.DB_ANSWER_DEADLINE == 3 + 5


def test_no_statement_timeout_means_no_client_deadline_either(reload_with):
    # for a migration of a large table or a bulk load: nothing may cut it short
    assert reload_with(DATABASE_URL=PG, DB_STATEMENT_TIMEOUT="0").DB_ANSWER_DEADLINE is None
    assert reload_with(DATABASE_URL="sqlite:///:memory:").DB_ANSWER_DEADLINE is None


@pytest.mark.parametrize("name, raw", [("DB_STATEMENT_TIMEOUT", "15s"), ("DB_LOCK_TIMEOUT", "-1")])
def test_a_bad_timeout_stops_start_up(reload_with, name, raw):
    with pytest.raises(ImproperlyConfigured, match=name):
        reload_with(DATABASE_URL=PG, **{name: raw})


@pytest.fixture
def silent_server():
    """A TCP server that accepts connections and never says a word, as a frozen PostgreSQL does."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for sock in accepted:
        sock.close()
    listener.close()


def test_a_server_that_never_answers_fails_the_connection_at_the_deadline(silent_server):
    psycopg2.extensions.set_wait_callback(db_deadline.deadline_wait(connect=0.5, answer=1))
    try:
        with pytest.raises(psycopg2.OperationalError, match="did not answer within 0.5 s"):
            psycopg2.connect(host="127.0.0.1", port=silent_server, user="postgres", dbname="x", sslmode="disable")
    finally:
        psycopg2.extensions.set_wait_callback(None)
        from django.conf import settings

        if settings.DB_ANSWER_DEADLINE:  # put back what this run's start-up installed
            db_deadline.install(connect=settings.DB_CONNECT_TIMEOUT, answer=settings.DB_ANSWER_DEADLINE)
