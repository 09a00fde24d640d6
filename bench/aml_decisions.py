"""Benchmark: decisions before the money moves (the payment platform's intake), on the AML bench ledger.

    .venv/bin/python bench/aml_decisions.py [--transactions 1000000] [--decisions 400] [--reuse] [--no-http]

Uses the database of ``bench/aml_engine.py`` (``bench_aml``, or ``BENCH_AML_DB``; built when missing or of
another size), with the 43 catalogue rules active, wallets funded so debits are decided, not refused. Each
decision is a real intake call (``kyc.services.ledger.transaction_intake``: lock, screen, record, commit)
shaped like a random ledger row of a random (heavy-tailed) customer and dated inside the ledger, so the
rules' windows are full. Alerts go to the background worker, as in production. It measures, in one run:

* the service, 1 caller and 8 concurrent callers (8 threads of one process, and 2 processes of 4 threads, the
  server's shape: its rate is the summary's): latency p50/p95/p99, decisions per second;
* screening off (the same calls with screening paused): the latency screening adds;
* the record-time path before decisions existed (all 43 rules scoped to one row, no prefilter), on the
  same rows, as the baseline;
* through HTTP (gunicorn, 2 workers of 4 threads on Redis, ``POST /api/v1/admin/aml/transactions`` with a
  service key), 1 and 8 callers;
* the batch scan over the whole ledger, transactions per second.

It ends with one line for comparing runs:
``decisions p95_ms=<service, 1 caller> per_s=<service, 8 callers in 2 processes> batch_tx_per_s=<n>``.
"""

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import aml_engine  # noqa: E402  (the ledger loader and database of the engine benchmark)

HTTP_PORT = int(os.environ.get("BENCH_HTTP_PORT", "8791"))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")  # every call of the run failed (its errors say so)
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def summary(latencies_ms: list[float], seconds: float) -> dict:
    return {
        "p50": pct(latencies_ms, 50),
        "p95": pct(latencies_ms, 95),
        "p99": pct(latencies_ms, 99),
        "per_s": len(latencies_ms) / seconds if seconds else 0.0,
        "n": len(latencies_ms),
    }


def templates(n: int, seed: int = 11) -> list[dict]:
    """Random completed ledger rows (heavy users come up as often as they transact), as intake bodies."""
    from django.db import connection

    from kyc.models import Transaction

    with connection.cursor() as cur:
        cur.execute(
            f"SELECT user_id, type, amount, channel, counterparty_user_id, counterparty_vendor_id, region, created_at "
            f"FROM {Transaction._meta.db_table} TABLESAMPLE SYSTEM (5) REPEATABLE (%s) "
            "WHERE status = 'COMPLETED' AND type <> 'ADMIN_CREDIT' LIMIT %s",
            [seed, n * 4],
        )
        rows = cur.fetchall()
    rng = random.Random(seed)
    rng.shuffle(rows)
    return [
        {
            "user_id": r[0],
            "type": r[1],
            "amount": Decimal(r[2]),
            "channel": r[3],
            "counterparty_user_id": r[4],
            "counterparty_vendor_id": r[5],
            "region": r[6],
            "occurred_at": r[7] + aml_engine.dt.timedelta(seconds=rng.randint(1, 600)),
        }
        for r in rows[:n]
    ]


def run_service(bodies: list[dict], callers: int, *, paused: bool = False) -> dict:
    from django.db import connections

    from compliance.aml.services.screening import screening_paused
    from kyc.services.ledger import transaction_intake

    latencies: list[float] = []
    lock = threading.Lock()
    chunks = [bodies[i::callers] for i in range(callers)]

    def work(chunk):
        mine = []
        try:
            for body in chunk:
                started = time.perf_counter()
                if paused:
                    with screening_paused():
                        transaction_intake(external_id=f"bench-{uuid.uuid4().hex}", **body)
                else:
                    transaction_intake(external_id=f"bench-{uuid.uuid4().hex}", **body)
                mine.append((time.perf_counter() - started) * 1000)
        finally:
            connections.close_all()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=work, args=(c,)) for c in chunks]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {**summary(latencies, time.perf_counter() - started), "latencies": latencies}


def run_service_processes(bodies: list[dict], processes: int, threads: int) -> dict:
    """``run_service`` in ``processes`` forked processes of ``threads`` callers each, started together.

    A server runs several processes (gunicorn's workers, ``WEB_CONCURRENCY``: 3 by default with Redis), so one
    Python process's lock on the interpreter is not the server's ceiling: 8 callers in one process measure the
    interpreter lock as much as the decisions. Each child reports its latencies and its first and last moment;
    the rate is all decisions over the span from the first start to the last end.
    """
    import multiprocessing

    from django.db import connections

    connections.close_all()  # a forked child must open its own connection, never share the parent's socket
    context = multiprocessing.get_context("fork")
    go, results = context.Event(), context.Queue()

    def child(chunk):
        go.wait()
        started = time.time()
        outcome = run_service(chunk, threads)
        results.put((started, time.time(), outcome["latencies"]))

    children = [context.Process(target=child, args=(bodies[i::processes],)) for i in range(processes)]
    for c in children:
        c.start()
    go.set()
    reports = [results.get(timeout=900) for _ in children]
    for c in children:
        c.join()
    latencies = [ms for _, _, mine in reports for ms in mine]
    return summary(latencies, max(end for _, end, _ in reports) - min(start for start, _, _ in reports))


def run_old_path(bodies: list[dict]) -> dict:
    """The record-time screening before decisions: every rule scoped to the row, after the row is written."""
    from django.db import transaction

    from compliance.aml.services.scans import scan
    from kyc.models import PlatformUser
    from kyc.services.ledger import record_on_locked

    latencies = []
    started_all = time.perf_counter()
    with transaction.atomic():
        from compliance.aml.services.screening import screening_paused

        for body in bodies:
            fields = dict(body)
            user = PlatformUser.objects.get(pk=fields.pop("user_id"))
            started = time.perf_counter()
            with screening_paused():
                tx = record_on_locked(
                    user,
                    type=fields["type"],
                    amount=fields["amount"],
                    channel=fields["channel"],
                    counterparty_user_id=fields["counterparty_user_id"],
                    counterparty_vendor_id=fields["counterparty_vendor_id"],
                    region=fields["region"] or "",
                    created_at=fields["occurred_at"],
                )
            scan(since=tx.created_at, until=tx.created_at, user_id=tx.user_id)
            latencies.append((time.perf_counter() - started) * 1000)
        transaction.set_rollback(True)
    return summary(latencies, time.perf_counter() - started_all)


def _wait_for_port(port: int, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.3)
    raise RuntimeError(f"server on {port} did not start")


def _wait_for_health(port: int, timeout: float = 300) -> None:
    """Until the server answers (its workers load the app after the port opens; slowly on a loaded machine)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/api/v1/health")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(1)
    raise RuntimeError(f"server on {port} did not answer")


def run_http(bodies: list[dict], callers: int, key: str, port: int = HTTP_PORT) -> dict:
    latencies: list[float] = []
    errors: list[int] = []
    lock = threading.Lock()
    chunks = [bodies[i::callers] for i in range(callers)]

    def work(chunk):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine, bad = [], []
        for body in chunk:
            payload = json.dumps(
                {
                    "externalId": f"bench-{uuid.uuid4().hex}",
                    "userId": str(body["user_id"]),
                    "type": body["type"],
                    "amount": float(body["amount"]),
                    "channel": body["channel"],
                    **(
                        {"counterpartyUserId": str(body["counterparty_user_id"])}
                        if body["counterparty_user_id"]
                        else {}
                    ),
                    **(
                        {"counterpartyVendorId": str(body["counterparty_vendor_id"])}
                        if body["counterparty_vendor_id"]
                        else {}
                    ),
                    "region": body["region"] or "",
                    "occurredAt": body["occurred_at"].isoformat(),
                }
            )
            started = time.perf_counter()
            try:
                conn.request(
                    "POST",
                    "/api/v1/admin/aml/transactions",
                    body=payload,
                    headers={"Content-Type": "application/json", "X-API-Key": key},
                )
                response = conn.getresponse()
                response.read()
            except OSError:  # a time-out on a saturated machine: an error of the run, not the end of the bench
                bad.append(0)
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                continue
            mine.append((time.perf_counter() - started) * 1000)
            if response.status not in (200, 201):
                bad.append(response.status)
        conn.close()
        with lock:
            latencies.extend(mine)
            errors.extend(bad)

    threads = [threading.Thread(target=work, args=(c,)) for c in chunks]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    result = summary(latencies, time.perf_counter() - started)
    result["errors"] = len(errors)
    return result


def start_server(shape: str, port: int, db_url: str) -> subprocess.Popen:
    """A server of one shape on ``port``: ``run`` (what ``make run`` starts: scripts/run with nothing set, its
    size its own), ``local`` (scripts/serve without Redis: one process of threads, the shape ``make run`` had
    before it started a Redis of its own) or ``WxT`` (scripts/serve on the bench's Redis, W workers of T
    threads)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("REDIS_URL", "WEB_CONCURRENCY", "GUNICORN_THREADS", "CELERY_BROKER_URL")
    }
    env.update(
        {
            "DATABASE_URL": db_url,
            "ENVIRONMENT": "test",
            "AML_ALERTS_BACKGROUND": "true",
            "RATELIMIT_ENABLE": "false",
            "AML_RULES_REFRESH_SECONDS": "2",
            "DB_CONN_MAX_AGE": "60",
        }
    )
    script = "scripts/serve"
    if shape == "run":
        script = "scripts/run"
    elif shape != "local":
        workers, threads = shape.split("x")
        env.update(
            {
                "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11"),
                "WEB_CONCURRENCY": workers,
                "GUNICORN_THREADS": threads,
            }
        )
    return subprocess.Popen(
        [script, "127.0.0.1", str(port)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def compare_shapes(shapes: list[str], rounds: int, bodies: list[dict], key: str, db_url: str) -> dict:
    """8 callers against each shape, ``rounds`` times, the shapes taking turns (a machine whose load drifts
    slows them all alike); the median of each shape's rounds."""
    import statistics

    ports = {shape: HTTP_PORT + 1 + i for i, shape in enumerate(shapes)}
    servers = {shape: (port, start_server(shape, port, db_url)) for shape, port in ports.items()}
    per_s: dict[str, list[float]] = {shape: [] for shape in shapes}
    p95: dict[str, list[float]] = {shape: [] for shape in shapes}
    try:
        for port, _ in servers.values():
            _wait_for_port(port)
            _wait_for_health(port)
        n = len(bodies) // (rounds * len(shapes) + 1)
        for port, _ in servers.values():
            run_http(bodies[:20], 8, key, port)  # warm up every worker
        taken = n
        for round_ in range(rounds):
            for shape, (port, _) in servers.items():
                result = run_http(bodies[taken : taken + n], 8, key, port)
                taken += n
                per_s[shape].append(result["per_s"])
                p95[shape].append(result["p95"])
                figures = f"{result['per_s']:6.1f}/s p95 {result['p95']:6.1f} ms"
                print(f"  round {round_ + 1} {shape:>6}: {figures}", flush=True)
    finally:
        for _, server in servers.values():
            server.terminate()
            server.wait(timeout=30)
    return {shape: (statistics.median(per_s[shape]), statistics.median(p95[shape])) for shape in shapes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transactions", type=int, default=1_000_000)
    parser.add_argument("--decisions", type=int, default=400, help="intake calls per measurement")
    parser.add_argument("--reuse", action="store_true", help="keep an already loaded bench database")
    parser.add_argument("--no-http", action="store_true", help="skip the HTTP measurements")
    parser.add_argument("--sample", type=int, default=300, help="ignored (aml_engine's option)")
    parser.add_argument(
        "--http-shapes",
        help="compare server shapes over HTTP with 8 callers instead of the full run, e.g. local,run,2x4,4x4 "
        "(run: what make run starts; local: one process without Redis; WxT: workers x threads on Redis)",
    )
    parser.add_argument("--http-rounds", type=int, default=5, help="rounds per shape with --http-shapes")
    args = parser.parse_args()

    os.environ.setdefault("AML_ALERTS_BACKGROUND", "true")
    os.environ.setdefault("RATELIMIT_ENABLE", "false")
    os.environ.setdefault("AML_RULES_REFRESH_SECONDS", "2")
    db_url = aml_engine._create_database(drop=not args.reuse)
    aml_engine._setup_django(db_url)
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Max, Min

    from backoffice.services.service_keys import service_key_create
    from compliance.aml.models.rules import AMLRule
    from compliance.aml.services.catalogue import rule_catalogue_load
    from compliance.aml.services.scans import scan
    from compliance.aml.services.screening import wait_for_background_alerts
    from kyc.models import PlatformUser, Transaction, UserActivityHour

    call_command("migrate", verbosity=0)
    existing = Transaction.objects.exclude(external_id__startswith="bench-").count()
    if existing != args.transactions:
        if existing:
            sys.exit(f"{aml_engine.BENCH_DB} holds {existing} transactions; run without --reuse to rebuild it")
        print(f"Loading {args.transactions:,} transactions ...", flush=True)
        aml_engine._load(args.transactions)
    rule_catalogue_load()
    AMLRule.objects.update(is_active=True)
    # earlier runs' intake rows would make the ledger grow run after run
    Transaction.objects.filter(external_id__startswith="bench-").delete()
    # the ledger was loaded with COPY (and earlier runs' rows deleted): its hourly activity from scratch
    from kyc.services.activity import activity_rebuild

    started = time.perf_counter()
    activity_rebuild()
    print(f"hourly activity rebuilt in {time.perf_counter() - started:.1f} s", flush=True)
    PlatformUser.objects.update(balance=Decimal("5000000.00"))
    with connection.cursor() as cur:
        # loaded in minutes, not over 90 days: do what autovacuum would have done since (the visibility map
        # lets the window queries read the covering index alone), and the planner statistics
        cur.execute(f"VACUUM ANALYZE {Transaction._meta.db_table}")
        cur.execute(f"VACUUM ANALYZE {UserActivityHour._meta.db_table}")  # rebuilt just now
    bounds = Transaction.objects.aggregate(first=Min("created_at"), last=Max("created_at"))
    n_tx = Transaction.objects.count()
    rules = AMLRule.objects.filter(is_active=True).count()
    n = args.decisions
    bodies = templates(n * 6)
    print(f"{n_tx:,} transactions, {rules} active rules, {n} decisions per measurement", flush=True)
    if args.http_shapes:
        shapes = args.http_shapes.split(",")
        key = service_key_create(name=f"bench-{uuid.uuid4().hex[:8]}").key
        print(f"HTTP, 8 callers, {shapes}, {args.http_rounds} rounds; load average {os.getloadavg()}", flush=True)
        shape_bodies = templates(n * args.http_rounds * len(shapes) + n)
        medians = compare_shapes(shapes, args.http_rounds, shape_bodies, key, db_url)
        base = medians[shapes[0]][0]
        print(f"\nShape (8 callers)  | median per s | median p95 ms | vs {shapes[0]}")
        for shape, (rate, p95) in medians.items():
            print(f"{shape:<18} | {rate:12.1f} | {p95:13.1f} | {rate / base:5.2f}x")
        print(f"load average after: {os.getloadavg()}; CPUs: {os.cpu_count()}")
        return

    results = {}
    print("service, 1 caller, screening on ...", flush=True)
    run_service(bodies[:20], 1)  # warm up connections and caches
    results["service 1 caller"] = run_service(bodies[0:n], 1)
    print("service, 1 caller, screening off ...", flush=True)
    results["service 1 caller, screening off"] = run_service(bodies[0:n], 1, paused=True)
    print("service, 8 callers ...", flush=True)
    results["service 8 callers"] = run_service(bodies[n : 2 * n], 8)
    print("service, 8 callers in 2 processes ...", flush=True)
    results["service 8 callers, 2 processes"] = run_service_processes(bodies[5 * n : 6 * n], 2, 4)
    wait_for_background_alerts()  # the old path's one long transaction would hold their wallets' locks
    print("before decisions: every rule on the row ...", flush=True)
    results["old record-time path, 1 caller"] = run_old_path(bodies[2 * n : 2 * n + min(n, 150)])
    wait_for_background_alerts()

    server = None
    if not args.no_http:
        key = service_key_create(name=f"bench-{uuid.uuid4().hex[:8]}").key
        env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "ENVIRONMENT": "test",
            "AML_ALERTS_BACKGROUND": "true",
            "RATELIMIT_ENABLE": "false",
            "AML_RULES_REFRESH_SECONDS": "2",
            "DB_CONN_MAX_AGE": "60",
            # the server's shape: workers share Redis (cache, limits), two processes of 4 threads for 2 cores,
            # as the service's 8 callers above (one process's threads would queue on the interpreter lock)
            "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11"),
            "WEB_CONCURRENCY": "2",
            "GUNICORN_THREADS": "4",
        }
        server = subprocess.Popen(
            ["scripts/serve", "127.0.0.1", str(HTTP_PORT)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait_for_port(HTTP_PORT)
            print("HTTP, 1 caller ...", flush=True)
            run_http(bodies[3 * n : 3 * n + 20], 1, key)
            results["HTTP 1 caller"] = run_http(bodies[3 * n : 4 * n], 1, key)
            print("HTTP, 8 callers ...", flush=True)
            results["HTTP 8 callers"] = run_http(bodies[4 * n : 5 * n], 8, key)
        finally:
            server.terminate()
            server.wait(timeout=30)

    print("batch scan over the whole ledger ...", flush=True)
    started = time.perf_counter()
    scan(since=bounds["first"], until=bounds["last"])
    batch_seconds = time.perf_counter() - started
    batch_rate = n_tx / batch_seconds

    width = max(len(k) for k in results)
    print()
    print(f"{'Decisions':<{width}} |   p50 ms |   p95 ms |   p99 ms |  per s")
    print(f"{'-' * width}-+----------+----------+----------+-------")
    for name, r in results.items():
        extra = f"  ({r['errors']} errors)" if r.get("errors") else ""
        print(f"{name:<{width}} | {r['p50']:8.1f} | {r['p95']:8.1f} | {r['p99']:8.1f} | {r['per_s']:6.1f}{extra}")
    on, off = results["service 1 caller"], results["service 1 caller, screening off"]
    old = results["old record-time path, 1 caller"]
    print()
    print(f"Screening adds (p50 / p95):          {on['p50'] - off['p50']:.1f} / {on['p95'] - off['p95']:.1f} ms")
    print(f"Old path / decisions (p50):          {old['p50'] / on['p50']:.1f}x")
    print(f"Batch scan:                          {n_tx:,} tx in {batch_seconds:.1f} s = {batch_rate:,.0f} tx/s")
    # the server's own shape: several processes (one process's 8 threads queue on the interpreter lock)
    per_s = results["service 8 callers, 2 processes"]["per_s"]
    print(
        f"Targets: p95 < 20 ms {'met' if on['p95'] < 20 else 'NOT met'}; "
        f">= 200/s {'met' if per_s >= 200 else 'NOT met'}; "
        f"batch >= 20,000 tx/s {'met' if batch_rate >= 20000 else 'NOT met'}"
    )
    print(f"decisions p95_ms={on['p95']:.1f} per_s={per_s:.0f} batch_tx_per_s={batch_rate:.0f}")


if __name__ == "__main__":
    main()
