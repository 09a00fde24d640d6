"""Benchmark: webhooks from commit to a receiver's 2xx, with Celery workers, PostgreSQL and Redis.

    .venv/bin/python bench/webhooks.py                 # database bench_webhooks, Redis db 12 as the broker
    .venv/bin/python bench/webhooks.py --events 300 --rate 50
    BENCH_DATABASE_URL=postgres://.../other BENCH_BROKER_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/webhooks.py

A local receiver (127.0.0.1) answers 500 to one call in five. For 1, 4 and 16 endpoints, ``--events`` events are
committed at ``--rate`` per second, each in its own transaction as a held payment's release would; the workers
(scripts/worker, 2 processes) send them. Per line: deliveries per second from the first commit to the last 2xx, the
p50/p95 delay from an event's commit to its endpoint's first 2xx, and the checks the issue asks for: no event lost,
none sent to an endpoint not subscribed, every retry carrying its first id. The baseline is the same receiver
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


class Receiver:
    """Records, per (endpoint path, webhook-id), the time of the first 2xx and every id it was sent."""

    def __init__(self, fail_every: int):
        self.fail_every = fail_every
        self.calls = 0
        self.lock = threading.Lock()
        self.first_ok: dict[tuple[str, str], float] = {}
        self.seen: dict[tuple[str, str], int] = {}
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                key = (self.path, self.headers["webhook-id"])
                with receiver.lock:
                    receiver.calls += 1
                    fail = receiver.fail_every and receiver.calls % receiver.fail_every == 0
                    receiver.seen[key] = receiver.seen.get(key, 0) + 1
                    if not fail:
                        receiver.first_ok.setdefault(key, time.time())
                self.send_response(500 if fail else 204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        # keep-alive, as a platform's receiver behind any web server would (http.server's default is HTTP/1.0,
        # one connection per call)
        Handler.protocol_version = "HTTP/1.1"
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"


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
    while time.time() < deadline and not (expected <= set(receiver.first_ok) and _all_recorded(committed)):
        time.sleep(0.05)
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
    args = parser.parse_args()
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
        [str(ROOT / "scripts" / "worker"), "default", "2", "bench-webhooks"],
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
            for endpoints in (1, 4, 16):
                receiver = Receiver(fail_every)
                try:
                    line = _run_line(receiver, endpoints, args.events, args.rate)
                finally:
                    receiver.server.shutdown()
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
        worst = max(summary[(5, n)]["p95"] for n in (1, 4, 16))
        print(
            "webhooks "
            + " ".join(f"p95_{n}ep_ms={summary[(5, n)]['p95']:.0f}" for n in (1, 4, 16))
            + f" worst_p95_ms={worst:.0f} lost={sum(v['lost'] for v in summary.values())}"
        )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()
