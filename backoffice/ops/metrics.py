"""Prometheus metrics, correct across every gunicorn worker and Celery process of a machine.

The processes of one machine share the directory ``PROMETHEUS_MULTIPROC_DIR`` (``scripts/serve`` and
``scripts/worker`` set it up): prometheus-client then keeps every value in a memory-mapped file per
process, and a scrape of ``GET /metrics`` (``backoffice.api.operations.MetricsView``) adds up the files of
all of them. Without the variable (tests, ``manage.py`` commands) the values live in the process.

Two kinds of metric:

* **Recorded** as things happen, defined here (requests, tasks) or in the app that records them
  (``verification.metrics``): module-level objects, written from any process.
* **Computed at scrape time** by a collector that asks the database or the broker (queue depth, open
  alerts, jobs by status). A higher app registers its own from ``AppConfig.ready()`` with
  ``register_collector`` and the foundation never imports it. A collector must be cheap (a count on an
  indexed column), and one that fails is logged and left out of that scrape, never a failed scrape.
"""

import logging
import os
from collections.abc import Callable, Iterable
from glob import glob

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

logger = logging.getLogger("backoffice.metrics")

# prometheus-client writes into PROMETHEUS_MULTIPROC_DIR from the first metric on and fails when it is
# missing: a command run with the servers' environment (manage.py migrate) must not stop for that.
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

CONTENT_TYPE = CONTENT_TYPE_LATEST
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
_TASK_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900)

HTTP_REQUEST_DURATION = Histogram(
    "vikela_http_request_duration_seconds",
    "Time to answer a request, by route template, method and status",
    ["route", "method", "status"],
    buckets=_LATENCY_BUCKETS,
)
HTTP_REQUESTS_IN_PROGRESS = Gauge(
    "vikela_http_requests_in_progress",
    "Requests being answered now (live processes only)",
    multiprocess_mode="livesum",
)
TASK_DURATION = Histogram(
    "vikela_task_duration_seconds",
    "Time a background task ran, by task and outcome (success, failure, retry)",
    ["task", "outcome"],
    buckets=_TASK_BUCKETS,
)
TASK_FAILURES = Counter("vikela_task_failures_total", "Background tasks that ended in an error, by task", ["task"])
TASK_RETRIES = Counter("vikela_task_retries_total", "Background tasks sent back for a retry, by task", ["task"])
PERIODIC_SKIPPED = Counter(
    "vikela_periodic_skipped_total",
    "Periodic runs not sent because their period was already scheduled (another beat, a restart)",
    ["name"],
)

AUDIT_CHAIN_BREAKS = Counter(
    "vikela_audit_chain_breaks_total",
    "Times the audit chain's watch found a broken entry (docs/audit-chain.md): any increase is CRITICAL",
)

WEBHOOK_DELIVERIES = Counter(
    "vikela_webhook_deliveries_total",
    "Webhook delivery attempts by outcome: delivered (2xx), retry (another attempt later), failed (given up)",
    ["status"],
)
WEBHOOK_DELIVERY_SECONDS = Histogram(
    "vikela_webhook_delivery_seconds",
    "Time from an event's commit to its receiver's 2xx",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 86400),
)

Collect = Callable[[], Iterable[Metric]]
_collectors: dict[str, Collect] = {}


def register_collector(name: str, collect: Collect) -> None:
    """Add a scrape-time collector: ``collect()`` yields prometheus-client metric families.

    Keyed by ``name`` so that ``ready()`` running twice registers it once.
    """
    _collectors[name] = collect


def collector_names() -> list[str]:
    return sorted(_collectors)


def multiprocess_dir() -> str | None:
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    return path if path and os.path.isdir(path) else None


class _ScrapeTime:
    """The registered collectors as one prometheus-client collector; a failing one is left out."""

    def collect(self):
        for name, collect in list(_collectors.items()):
            try:
                families = list(collect())
            except Exception:
                logger.exception("metrics collector %s failed", name)
                continue
            yield from families


class _Recorded:
    """The recorded metrics of this process (no multiprocess directory)."""

    def collect(self):
        yield from REGISTRY.collect()


def exposition() -> bytes:
    """The Prometheus text of one scrape: every process's recorded metrics, then the scrape-time ones."""
    registry = CollectorRegistry(auto_describe=False)
    path = multiprocess_dir()
    if path:
        MultiProcessCollector(registry, path=path)
    else:
        registry.register(_Recorded())
    registry.register(_ScrapeTime())
    return generate_latest(registry)


def clean_dead_processes(path: str, *, alive: Callable[[int], bool] | None = None) -> list[str]:
    """Remove the live gauges of processes that are gone (an earlier run, a killed one); returns what went.

    prometheus-client's multiprocess mode as designed: a dead process's counters and histograms stay in the
    directory and keep being summed, so a total never goes down when a worker dies or another process
    starts (removing them made a request total fall from 384 to 350). Only ``livesum``/``liveall`` gauges
    describe the living, and only they go. Called when a server or a worker starts: the Celery workers,
    beat and gunicorn of ``make run`` share the directory and start at once, so two of them may remove the
    same file; the one that finds it gone already carries on.
    """
    alive = alive or _alive
    removed = []
    for name in glob(os.path.join(path, "gauge_live*_*.db")):
        pid = _pid_of(name)
        if pid is not None and not alive(pid) and _remove(name):
            removed.append(name)
    return removed


def process_dead(pid: int) -> None:
    """A process of this machine ended: its live gauges go (its counters and histograms stay counted)."""
    if multiprocess_dir():
        try:
            mark_process_dead(pid)
        except FileNotFoundError:
            pass  # a starting process's clean-up removed it first


def _remove(name: str) -> bool:
    try:
        os.remove(name)
    except FileNotFoundError:
        return False
    return True


def _pid_of(file_name: str) -> int | None:
    stem = os.path.basename(file_name).rsplit(".", 1)[0]
    try:
        return int(stem.rsplit("_", 1)[1])
    except (IndexError, ValueError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True
    return True
