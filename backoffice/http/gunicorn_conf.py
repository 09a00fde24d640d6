"""gunicorn's configuration module (``scripts/serve``: ``-c python:backoffice.http.gunicorn_conf``).

Loaded by gunicorn's master before Django is set up, so it imports nothing of Django that needs settings:

* logs: gunicorn's own events (worker boots, timeouts, signals) as the same JSON lines as the app's
  (``backoffice.ops.logs``); requests are logged by the app (``backoffice.http.requestlog``), with their route and
  principal, so gunicorn's access log stays off.
* metrics: at start, the multiprocess directory loses the live gauges of processes that are gone (an earlier
  run); when a worker exits (a restart, a timeout, a crash) its live gauges are removed with it
  (``mark_process_dead``). Counters and histograms of ended processes stay and are summed: totals never fall.
* warm-up: each worker, once the application is loaded, builds what its first requests would otherwise wait
  for (the sanctions and PEP name indexes; ``backoffice.http.warmup``), in a thread, while it already serves.
"""

import os

from backoffice.http import warmup
from backoffice.ops import metrics
from backoffice.ops.logs import logging_config

logconfig_dict = logging_config(
    fmt=os.environ.get("LOG_FORMAT") or "json", level=(os.environ.get("LOG_LEVEL") or "INFO").upper()
)


def on_starting(server):
    path = metrics.multiprocess_dir()
    if path:
        removed = metrics.clean_dead_processes(path)
        server.log.info("metrics directory %s: %d live gauges of ended processes removed", path, len(removed))


def child_exit(server, worker):
    metrics.process_dead(worker.pid)


def post_worker_init(worker):
    warmup.warm_up_process()
