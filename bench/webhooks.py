"""Benchmark: webhooks from commit to a receiver's 2xx, with Celery workers, PostgreSQL and Redis.

    .venv/bin/python bench/webhooks.py                 # database bench_webhooks, Redis db 12 as the broker
    .venv/bin/python bench/webhooks.py --events 300 --rate 50
    BENCH_DATABASE_URL=postgres://.../other BENCH_BROKER_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/webhooks.py

A local receiver (127.0.0.1, a process of its own) answers 500 to one call in five. For 1, 4 and 16 endpoints
(``--endpoints``), ``--events`` events are committed at ``--rate`` per second, each in its own transaction as a held
payment's release would; the workers (scripts/worker, ``--workers`` processes, default 2) send them. Per line:
deliveries per second from the first commit to the last 2xx, the p50/p95 delay from an event's commit to its
endpoint's first 2xx, and the checks the issue asks for: no event lost, none sent to an endpoint not subscribed,
every retry carrying its first id. The baseline is the same receiver
answering every call 2xx (no retries), in the same run.
Target: p95 commit-to-delivery under 1 s.
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bench_webhooks"
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/12")


def _ensure_database(url: str) -> None:
    import psycopg2
    from psycopg2 import sql

    name = url.rsplit("/", 1)[1]
    admin = psycopg2.connect(url.rsplit("/", 1)[0] + "/postgres")
    admin.autocommit = True
    with admin.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    admin.close()


def _environment(url: str) -> dict:
    env = {
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": BROKER,
        "ENVIRONMENT": "development",
        "SECRET_KEY": "bench-only-secret-key-not-for-production-use-0123456789",
        "WEBHOOK_ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "backoffice.settings",
        "PROMETHEUS_MULTIPROC_DIR": str(ROOT / ".run" / "bench-webhooks-metrics"),
    }
    os.environ.update(env)
    return env


def _serve(fail_every: int, port_out, control) -> None:
    """The receiver's process: records, per (endpoint path, webhook-id), the time of the first 2xx and how many
    times it was sent, and hands both over when asked on ``control``."""
    lock = threading.Lock()
    first_ok: dict[tuple[str, str], float] = {}
    seen: dict[tuple[str, str], int] = {}
    calls = 0

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            nonlocal calls
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            key = (self.path, self.headers["webhook-id"])
            with lock:
                calls += 1
                fail = fail_every and calls % fail_every == 0
                seen[key] = seen.get(key, 0) + 1
                if not fail:
                    first_ok.setdefault(key, time.time())
            self.send_response(500 if fail else 204)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    # keep-alive, as a platform's receiver behind any web server would (http.server's default is HTTP/1.0,
    # one connection per call)
    Handler.protocol_version = "HTTP/1.1"
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port_out.send(server.server_address[1])
    while control.recv() == "snapshot":
        with lock:
            control.send((dict(first_ok), dict(seen)))
    server.shutdown()


class Receiver:
    """A local receiver in a process of its own, as the platform's server is: in the bench's own process it
    shared one interpreter lock with the events' producer, and each answer waited for the lock's turns (with 16
    endpoints the receiver's latency, not the sender, set the figures). It answers 500 to one call in
    ``fail_every`` (0: never)."""

    def __init__(self, fail_every: int):
        import multiprocessing

        ours, theirs = multiprocessing.Pipe()
        port_in, port_out = multiprocessing.Pipe(duplex=False)
        self.process = multiprocessing.get_context("fork").Process(
            target=_serve, args=(fail_every, port_out, theirs), daemon=True
        )
        self.process.start()
        self.port = port_in.recv()
        self.control = ours
        self.first_ok: dict[tuple[str, str], float] = {}
        self.seen: dict[tuple[str, str], int] = {}

    def refresh(self) -> None:
        self.control.send("snapshot")
        self.first_ok, self.seen = self.control.recv()

    def stop(self) -> None:
        self.control.send("stop")
        self.process.join(timeout=10)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


def _run_line(receiver: Receiver, endpoints: int, events: int, rate: float) -> dict:
    from django.db import transaction

    from backoffice.models import WebhookEndpoint
    from backoffice.services import webhooks

    WebhookEndpoint.objects.all().delete()
    for i in range(endpoints):
        webhooks.webhook_endpoint_create(actor=None, url=receiver.url(f"/e{i}"), event_types=["transaction.released"])
    # one endpoint subscribed to something else: it must be sent nothing
    webhooks.webhook_endpoint_create(actor=None, url=receiver.url("/other"), event_types=["user.frozen"])
    committed: dict[str, float] = {}
    started = time.time()
    for n in range(events):
        with transaction.atomic():
            event = webhooks.webhook_emit(event_type="transaction.released", data={"transaction_id": f"t{n}"})
        committed[event.id] = time.time()
        time.sleep(max(0.0, started + (n + 1) / rate - time.time()))
    expected = {(f"/e{i}", eid) for i in range(endpoints) for eid in committed}
    deadline = time.time() + 60
    receiver.refresh()
    while time.time() < deadline and not (expected <= set(receiver.first_ok) and _all_recorded(committed)):
        time.sleep(0.2)  # the times are the receiver's own: polling less often changes no figure
        receiver.refresh()
    delays = [receiver.first_ok[k] - committed[k[1]] for k in expected if k in receiver.first_ok]
    last = max((receiver.first_ok[k] for k in expected if k in receiver.first_ok), default=time.time())
    rows = _rows(committed)
    delivered = {key for key, (status, _attempts) in rows.items() if status == "DELIVERED"}
    # the checks read the outbox's rows, not the receiver: an event is lost when a subscribed endpoint has no row
    # for it that ended DELIVERED (a row still waiting for its retry when the line ends is counted as pending)
    lost = len(expected - set(rows))
    pending = sum(1 for key in expected & set(rows) if key not in delivered)
    stray = len(set(rows) - expected) + sum(1 for (path, _eid) in receiver.seen if path not in {k[0] for k in expected})
    unknown_ids = sum(1 for (_p, eid) in receiver.seen if eid not in committed)
    # every attempt the outbox made reached the receiver under the event's one id (a retry carries its first id)
    id_mismatch = sum(1 for key, (_status, attempts) in rows.items() if receiver.seen.get(key, 0) != attempts)
    delays.sort()
    return {
        "per_s": len(delays) / (last - started) if delays else 0.0,
        "p50": statistics.median(delays) * 1000 if delays else float("nan"),
        "p95": delays[int(0.95 * (len(delays) - 1))] * 1000 if delays else float("nan"),
        "lost": lost,
        "pending": pending,
        "stray": stray,
        "unknown_ids": unknown_ids,
        "id_mismatch": id_mismatch,
        "retried": sum(1 for (_status, attempts) in rows.values() if attempts > 1),
    }


def _rows(committed: dict[str, float]) -> dict[tuple[str, str], tuple[str, int]]:
    """(endpoint path, event id) -> (status, attempts) of every delivery row of the line's events."""
    from urllib.parse import urlsplit

    from backoffice.models import WebhookDelivery

    rows = WebhookDelivery.objects.filter(event_id__in=list(committed)).values_list(
        "endpoint__url", "event_id", "status", "attempts"
    )
    return {(urlsplit(url).path, event_id): (status, attempts) for url, event_id, status, attempts in rows}


def _all_recorded(committed: dict[str, float]) -> bool:
    from backoffice.models import WebhookDelivery

    return not WebhookDelivery.objects.filter(event_id__in=list(committed)).exclude(status="DELIVERED").exists()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=200, help="events per line (default 200)")
    parser.add_argument("--rate", type=float, default=40.0, help="events committed per second (default 40)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--endpoints", default="1,4,16", help="the lines' endpoint counts, comma-separated (default 1,4,16)"
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.endpoints.split(",")]
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    _ensure_database(url)
    env = _environment(url)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(BROKER).flushdb()
    (ROOT / ".run" / "bench-webhooks-metrics").mkdir(parents=True, exist_ok=True)
    worker = subprocess.Popen(
        [str(ROOT / "scripts" / "worker"), "default", str(args.workers), "bench-webhooks"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        time.sleep(6)  # the worker's start-up (Django, the task modules)
        print(f"machine load before: {os.getloadavg()[0]:.2f}")
        print(f"{'receiver':18s} {'endpoints':>9s} {'deliveries/s':>13s} {'p50 ms':>8s} {'p95 ms':>8s}  checks")
        summary = {}
        for fail_every, label in ((0, "always 2xx"), (5, "500 one in five")):
            for endpoints in counts:
                receiver = Receiver(fail_every)
                try:
                    line = _run_line(receiver, endpoints, args.events, args.rate)
                finally:
                    receiver.stop()
                checks = (
                    f"lost {line['lost']}, pending {line['pending']}, to unsubscribed {line['stray']}, "
                    f"unknown ids {line['unknown_ids']}, attempts not seen under their id {line['id_mismatch']}, "
                    f"retried {line['retried']}"
                )
                print(
                    f"{label:18s} {endpoints:9d} {line['per_s']:13.1f} {line['p50']:8.0f} {line['p95']:8.0f}  {checks}"
                )
                summary[(fail_every, endpoints)] = line
        print(f"machine load after: {os.getloadavg()[0]:.2f}")
        worst = max(summary[(5, n)]["p95"] for n in counts)
        print(
            "webhooks "
            + " ".join(f"p95_{n}ep_ms={summary[(5, n)]['p95']:.0f}" for n in counts)
            + f" worst_p95_ms={worst:.0f} lost={sum(v['lost'] for v in summary.values())}"
        )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()
