"""A server process warms up once (gunicorn's post_worker_init), a forked one again, a failing warm-up is logged."""

import multiprocessing
import threading

import pytest

from backoffice.hooks import Hook
from backoffice.http import gunicorn_conf, warmup


@pytest.fixture
def hook(monkeypatch):
    fresh = Hook("server_warm_up")
    monkeypatch.setattr(warmup, "server_warm_up", fresh)
    monkeypatch.setattr(warmup, "_warmed_pid", None)
    return fresh


def test_the_warm_ups_run_once_per_process(hook):
    calls = []
    hook.register(lambda: calls.append(1))
    warmup.warm_up_process(background=False)
    warmup.warm_up_process(background=False)
    thread = warmup.warm_up_process()
    assert calls == [1] and thread is None


def _child(queue):
    calls = []
    warmup.server_warm_up.register(lambda: calls.append(1))
    warmup.warm_up_process(background=False)
    queue.put(len(calls))


def test_a_forked_process_warms_up_on_its_own(hook):
    hook.register(lambda: None)
    warmup.warm_up_process(background=False)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child, args=(queue,))
    child.start()
    child.join(60)
    assert queue.get(timeout=5) == 1


def test_a_failing_warm_up_is_logged_and_the_next_one_runs(hook, caplog):
    done = []

    def broken():
        raise RuntimeError("database not reachable")

    hook.register(broken)
    hook.register(lambda: done.append(1))
    with caplog.at_level("INFO", logger="backoffice.http.warmup"):
        warmup.warm_up_process(background=False)
    assert done == [1]
    assert any("broken failed" in record.getMessage() for record in caplog.records)


def test_gunicorn_starts_the_warm_up_in_a_thread_once_the_worker_is_loaded(hook):
    ran = threading.Event()
    names = []
    hook.register(lambda: names.append(threading.current_thread().name) or ran.set())
    gunicorn_conf.post_worker_init(worker=None)
    assert ran.wait(30) and names == ["warm-up"]
