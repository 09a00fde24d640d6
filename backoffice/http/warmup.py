"""What a server process builds before its first request needs it (gunicorn's ``post_worker_init``).

Some state is built once per process on first use: the name indexes of the sanctions entries and of the PEPs
(``names.index``, seconds to build). Without a warm-up the first payment a worker decides with a counterparty
name waits for the whole build. Apps register a function on ``server_warm_up`` in their ``ready()``; gunicorn
calls ``warm_up_process`` in each worker once the application is loaded (``backoffice/http/gunicorn_conf.py``),
so management commands, Celery workers and tests, which never serve, build nothing they do not use.

The warm-up runs in a thread of its own: the worker serves at once (health checks, the admin site), and a
request that needs an index meanwhile waits for the build under way rather than starting another
(``IndexHolder`` builds once). A warm-up that fails (the database not reachable yet) is logged and left to the
first request, as without a warm-up. Imports nothing of Django at module level beyond ``django.db``'s lazy
connection handler: ``gunicorn_conf`` loads it before Django is set up.
"""

import logging
import os
import threading
import time

from django.db import connections

from backoffice.hooks import Hook

logger = logging.getLogger("backoffice.http.warmup")

# functions of no argument, each building something this process will need to serve
server_warm_up = Hook("server_warm_up")

_lock = threading.Lock()
_warmed_pid: int | None = None


def _run() -> None:
    for function in server_warm_up._functions:
        started = time.perf_counter()
        try:
            function()
        except Exception:
            logger.exception(
                "warm-up %s failed in process %d; the first request that needs it builds it",
                function.__name__,
                os.getpid(),
            )
        else:
            logger.info(
                "warm-up %s done in %.2f s in process %d", function.__name__, time.perf_counter() - started, os.getpid()
            )


def _run_in_thread() -> None:
    try:
        _run()
    finally:
        # this thread's own database connections: the thread ends here, they would stay open until the process ends
        connections.close_all()


def warm_up_process(*, background: bool = True) -> threading.Thread | None:
    """Run the registered warm-ups once in this process (a forked child runs its own); the thread running them,
    or None when this process had already started them (or ``background`` is False: they ran here)."""
    global _warmed_pid
    with _lock:
        if _warmed_pid == os.getpid():
            return None
        _warmed_pid = os.getpid()
    if not background:
        _run()
        return None
    thread = threading.Thread(target=_run_in_thread, name="warm-up", daemon=True)
    thread.start()
    return thread
