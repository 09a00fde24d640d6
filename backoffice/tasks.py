"""What every background task shares: the base class, how a task is started, its context and its metrics.

* ``VikelaTask`` (the base of every task, ``@shared_task(base=VikelaTask)``): transient errors (a lost
  database or Redis connection) are retried with exponential back-off and jitter, at most
  ``TASK_MAX_RETRIES`` times. Tasks must be idempotent: a task is acknowledged when it ends, so a worker
  that dies makes it run again.
* ``dispatch(task, ...)``: the one way a request starts work. With a broker the task goes to the queue
  (a broker that is down is 503 ``SERVICE_UNAVAILABLE``, never a hang); without one it runs here, through
  the same task code, now or (``background=True``) in a thread of this process. A service names the task by
  its registered name (``dispatch("verification.process_job", ...)``): a tasks module imports its services,
  so a service that imported its tasks module would close a circle.
* The request id, principal and route of the request that sent a task travel in its message headers
  (``vikela_context``) and are set again around the task, so its log events carry them
  (``backoffice.ops.logs``); a task started by beat gets a request id of its own.
* Every run records ``vikela_task_duration_seconds`` by task and outcome, failures and retries.
"""

import contextvars
import logging
import threading
import time

from celery import Task, current_app
from celery.signals import (
    before_task_publish,
    task_failure,
    task_postrun,
    task_prerun,
    task_retry,
    worker_init,
    worker_process_shutdown,
)
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connections
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from backoffice.errors import ServiceUnavailable
from backoffice.ops import context, metrics, tracing
from backoffice.ops.periodic import PERIOD_HEADER

logger = logging.getLogger("backoffice.tasks")

CONTEXT_HEADER = "vikela_context"
TRANSIENT = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError, BrokerError)


class VikelaTask(Task):
    autoretry_for = TRANSIENT
    retry_backoff = True
    retry_jitter = True

    @property
    def max_retries(self):  # read when a retry is decided, so a test's settings apply
        return settings.TASK_MAX_RETRIES

    @property
    def retry_backoff_max(self):
        return settings.TASK_RETRY_BACKOFF_MAX


class QueueUnavailable(ServiceUnavailable):
    default_message = "The task queue is unavailable, try again shortly"


_threads: set[threading.Thread] = set()
_threads_lock = threading.Lock()


def registered(name: str) -> Task:
    """The task registered under ``name``. When it is not known yet, the apps' task modules are loaded as a
    worker loads them (Celery's autodiscovery), so the caller never imports the module that defines it."""
    tasks = current_app.tasks
    if name not in tasks:
        current_app.loader.import_default_modules()
    try:
        return tasks[name]
    except KeyError:
        raise LookupError(f"no task is registered as {name!r}") from None


def dispatch(
    task: Task | str, *, args: tuple = (), kwargs: dict | None = None, background: bool = False, **options
) -> None:
    """Start ``task`` (a task, or its registered name): on a worker when a broker is configured, else in this
    process (now, or in a thread)."""
    if isinstance(task, str):
        task = registered(task)
    kwargs = kwargs or {}
    if settings.TASKS_ASYNC:
        try:
            task.apply_async(args, kwargs, **options)
        except (BrokerError, RedisConnectionError, RedisTimeoutError, OSError) as error:
            logger.warning("could not send task %s: %s", task.name, error)
            raise QueueUnavailable() from error
        return
    if not background:
        # not thrown from inside apply(): an eager retry runs again only when apply() returns it
        result = task.apply(args, kwargs, throw=False)
        if result.failed():
            raise result.result
        return
    # the thread starts with this request's context (request id, principal), as a worker would
    run = contextvars.copy_context().run
    thread = threading.Thread(target=run, args=(_run_in_thread, task, args, kwargs), name=f"task {task.name}")
    thread.daemon = True
    with _threads_lock:
        _threads.add(thread)
    thread.start()


def _run_in_thread(task, args, kwargs) -> None:
    try:
        result = task.apply(args, kwargs, throw=False)
        if result.failed():
            logger.error("background task %s failed: %s", task.name, result.result)
    finally:
        with _threads_lock:
            _threads.discard(threading.current_thread())
        connections.close_all()  # this thread's own connections; nobody else will close them


def wait_for_background(timeout: float = 60) -> bool:
    """Wait for the tasks running in threads of this process (tests, a graceful stop); True if all ended."""
    deadline = time.monotonic() + timeout
    while True:
        with _threads_lock:
            running = list(_threads)
        if not running:
            return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        running[0].join(remaining)


# ---------------------------------------------------------------- signals: context, metrics, logs

_runs: dict[str, tuple[float, list]] = {}


@before_task_publish.connect
def _carry_context(headers=None, **_):
    if headers is not None and CONTEXT_HEADER not in headers:
        carried = {k: v for k, v in context.snapshot().items() if k in ("request_id", "principal")}
        tracing.inject(carried)  # the sending span's traceparent, when tracing is on
        headers[CONTEXT_HEADER] = carried


def _carried(task) -> dict:
    request = task.request
    carried = request.get(CONTEXT_HEADER) or (request.headers or {}).get(CONTEXT_HEADER) or {}
    return carried if isinstance(carried, dict) else {}


@task_prerun.connect
def _task_started(task_id=None, task=None, **_):
    carried = _carried(task)
    request_id = context.accepted_request_id(carried.get("request_id") or context.request_id.get())
    principal = carried.get("principal") or context.principal.get()
    values = {"request_id": request_id, "principal": principal, "task": task.name, "task_id": task_id}
    tokens = [(context.FIELDS[name], context.FIELDS[name].set(value)) for name, value in values.items()]
    if not task.request.is_eager:
        close_old_connections()  # a worker process reuses connections across tasks: drop dead ones first
    span = tracing.start_task_span(task.name, carried)
    _runs[task_id] = (time.perf_counter(), tokens, span)
    extra = {"retries": task.request.retries}
    period = task.request.get(PERIOD_HEADER) or (task.request.headers or {}).get(PERIOD_HEADER)
    if period:
        extra["period"] = period
    logger.info("task started", extra=extra)


@task_postrun.connect
def _task_ended(task_id=None, task=None, state=None, **_):
    started, tokens, span = _runs.pop(task_id, (None, [], None))
    tracing.end_task_span(span, state=state, request_id=context.request_id.get())
    if started is not None:
        elapsed = time.perf_counter() - started
        outcome = {"SUCCESS": "success", "RETRY": "retry"}.get(state, "failure")
        metrics.TASK_DURATION.labels(task.name, outcome).observe(elapsed)
        logger.info("task ended", extra={"state": state, "duration_ms": round(elapsed * 1000, 1)})
    if not task.request.is_eager:
        close_old_connections()
    for var, token in reversed(tokens):
        try:
            var.reset(token)
        except ValueError:  # set in another context (a task that retried eagerly inside itself)
            pass


@task_failure.connect
def _task_failed(sender=None, exception=None, **_):
    metrics.TASK_FAILURES.labels(sender.name).inc()
    logger.error("task failed: %s", exception, exc_info=exception)


@task_retry.connect
def _task_retried(sender=None, reason=None, **_):
    metrics.TASK_RETRIES.labels(sender.name).inc()
    logger.warning("task will be retried: %s", reason)


@worker_init.connect
def _worker_started(**_):
    path = metrics.multiprocess_dir()
    if path:
        metrics.clean_dead_processes(path)


@worker_process_shutdown.connect
def _pool_process_ended(pid=None, **_):
    if pid:
        metrics.process_dead(pid)


# ---------------------------------------------------------------- scrape time: how much waits in each queue

# kombu's Redis transport keeps a queue's messages of priority N>0 in a list of its own, named so
PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = (3, 6, 9)


def queue_names() -> list[str]:
    return sorted({settings.CELERY_TASK_DEFAULT_QUEUE, settings.VERIFICATION_QUEUE})


def queue_depths(client=None) -> dict[str, int]:
    """Messages waiting in each of our queues (not those a worker holds); empty without a broker."""
    if not settings.TASKS_ASYNC:
        return {}
    import redis

    client = client or redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=1, socket_connect_timeout=1)
    depths = {}
    with client.pipeline(transaction=False) as pipe:
        for name in queue_names():
            pipe.llen(name)
            for step in PRIORITY_STEPS:
                pipe.llen(f"{name}{PRIORITY_SEPARATOR}{step}")
        counts = pipe.execute()
    size = 1 + len(PRIORITY_STEPS)
    for index, name in enumerate(queue_names()):
        depths[name] = sum(counts[index * size : (index + 1) * size])
    return depths


def queue_depth_metrics():
    from prometheus_client.core import GaugeMetricFamily

    family = GaugeMetricFamily("vikela_queue_depth", "Tasks waiting in each Celery queue", labels=["queue"])
    for name, depth in queue_depths().items():
        family.add_metric([name], depth)
    yield family
