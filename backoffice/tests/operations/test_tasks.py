"""backoffice.tasks: how a task is started with and without a broker, its context, retries and metrics."""

import json
import logging

import pytest
from django.db import OperationalError

from backoffice.ops import context, metrics
from backoffice.tasks import CONTEXT_HEADER, QueueUnavailable, dispatch, queue_depths, registered, wait_for_background
from backoffice.tests.operations.tasks import attempts, flaky, remember_context, seen


@pytest.fixture(autouse=True)
def _fresh():
    seen.clear()
    attempts.clear()


def sample(name: str, **labels) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_without_a_broker_a_task_runs_now_in_this_process_with_the_callers_context():
    with context.bound(request_id="req-now", principal="staff:1"):
        dispatch(remember_context, args=("now",))
    assert seen == [
        {
            "label": "now",
            "request_id": "req-now",
            "principal": "staff:1",
            "task": "tests.remember_context",
            "task_id": seen[0]["task_id"],
        }
    ]


def test_in_the_background_it_runs_in_a_thread_that_keeps_the_request_id():
    import threading

    with context.bound(request_id="req-bg", principal="user:9"):
        dispatch(remember_context, args=("bg",), background=True)
    assert wait_for_background(30)
    assert seen[0]["request_id"] == "req-bg" and seen[0]["principal"] == "user:9"
    assert threading.active_count() >= 1


def test_a_service_names_the_task_it_starts_and_it_runs_as_the_task_itself_would():
    dispatch("tests.remember_context", args=("by name",))
    assert [row["label"] for row in seen] == ["by name"] and seen[0]["task"] == "tests.remember_context"


def test_a_name_is_found_among_the_apps_task_modules_and_an_unknown_one_is_refused():
    assert registered("verification.process_job").name == "verification.process_job"
    assert registered("compliance.peps.screen_chunk").name == "compliance.peps.screen_chunk"
    with pytest.raises(LookupError, match="no-such-task"):
        dispatch("no-such-task")


def test_transient_errors_are_retried_and_counted(settings):
    settings.TASK_MAX_RETRIES = 5
    retries_before = sample("vikela_task_retries_total", task="tests.flaky")
    success_before = sample("vikela_task_duration_seconds_count", task="tests.flaky", outcome="success")
    dispatch(flaky, args=("a", 2))
    assert attempts["a"] == 3
    assert sample("vikela_task_retries_total", task="tests.flaky") - retries_before == 2
    assert sample("vikela_task_duration_seconds_count", task="tests.flaky", outcome="success") - success_before == 1


def test_past_the_retries_the_error_surfaces_and_is_counted_as_a_failure(settings):
    settings.TASK_MAX_RETRIES = 1
    failures_before = sample("vikela_task_failures_total", task="tests.flaky")
    with pytest.raises(OperationalError):
        dispatch(flaky, args=("b", 10))
    assert attempts["b"] == 2
    assert sample("vikela_task_failures_total", task="tests.flaky") - failures_before == 1


def test_with_a_broker_the_message_carries_the_request_id_and_goes_to_its_queue(redis_broker):
    with context.bound(request_id="req-queued", principal="staff:7"):
        dispatch(remember_context, args=("queued",))
    assert seen == []  # sent, not run
    raw = redis_broker.lrange("default", 0, -1)
    assert len(raw) == 1
    message = json.loads(raw[0])
    assert message["headers"]["task"] == "tests.remember_context"
    assert message["headers"][CONTEXT_HEADER] == {"request_id": "req-queued", "principal": "staff:7"}
    assert queue_depths() == {"default": 1, "verification": 0}


def test_with_a_broker_a_task_named_goes_to_its_routed_queue(redis_broker):
    dispatch("verification.process_job", args=("0b1e4d6a-0000-4000-8000-000000000000",))
    assert queue_depths() == {"default": 0, "verification": 1}
    assert json.loads(redis_broker.lrange("verification", 0, -1)[0])["headers"]["task"] == "verification.process_job"


def test_the_queue_depth_is_a_scrape_time_metric(redis_broker):
    for label in ("a", "b", "c"):
        dispatch(remember_context, args=(label,))
    families = {f.name: f for f in metrics._ScrapeTime().collect()}
    depths = {s.labels["queue"]: s.value for s in families["vikela_queue_depth"].samples}
    assert depths == {"default": 3.0, "verification": 0.0}


def test_a_broker_that_is_down_is_503_not_a_hang(redis_broker, settings, caplog):
    from backoffice.celery import app
    from backoffice.tests.brokers import _reset_connections

    app.conf.broker_url = "redis://127.0.0.1:1/3"  # nothing listens on port 1
    _reset_connections()
    caplog.set_level(logging.WARNING, logger="backoffice.tasks")
    with pytest.raises(QueueUnavailable) as raised:
        dispatch(remember_context, args=("lost",))
    assert raised.value.status == 503 and raised.value.code == "SERVICE_UNAVAILABLE"
    assert "could not send task tests.remember_context" in caplog.text
