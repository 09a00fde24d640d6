"""A real Redis broker for the task tests: the machine's Redis, database 3 (this branch's own), emptied around
each test. The test process's Celery app is pointed at it (no eager runs) and back afterwards."""

import os

import pytest
import redis
from kombu import pools

from backoffice.celery import app

# TEST_BROKER_URL moves them (another Redis database for a parallel run); the database is emptied by the tests.
# The serial pass runs in two worker processes (conftest.py), each file whole in one: worker gwN takes the
# database N after the base one, so two workers never empty each other's queues.


def _broker_url(base: str, worker: str | None) -> str:
    if not worker:
        return base
    head, _, database = base.rpartition("/")
    return f"{head}/{int(database or 0) + int(worker.removeprefix('gw'))}"


BROKER_URL = _broker_url(
    os.environ.get("TEST_BROKER_URL", "redis://127.0.0.1:6379/3"), os.environ.get("PYTEST_XDIST_WORKER")
)


def _reset_connections() -> None:
    pools.reset()  # closes and forgets kombu's pools, so the next send connects to the URL in force now
    app._pool = None
    if "amqp" in app.__dict__:
        app.__dict__["amqp"]._producer_pool = None


@pytest.fixture
def redis_broker(settings):
    client = redis.Redis.from_url(BROKER_URL)
    try:
        client.ping()
    except redis.ConnectionError:
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    client.flushdb()
    before = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    settings.TASKS_ASYNC, settings.CELERY_BROKER_URL = True, BROKER_URL
    app.conf.update(broker_url=BROKER_URL, task_always_eager=False)
    _reset_connections()
    yield client
    app.conf.update(before)
    _reset_connections()
    client.flushdb()
    client.close()
