"""Payments per second over HTTP against a server that is already running, as the payment platform sends them.

    make run                                   # in another terminal (or any deployment)
    .venv/bin/python manage.py create_service_key --name bench     # prints the key on its last line
    .venv/bin/python bench/load/intake.py --key <key> [--url http://127.0.0.1:8000] [--callers 8] [--rounds 5]

``bench/aml_decisions.py`` starts servers of its own on its bench ledger; this one measures the server as it
is, ``make run``'s included (its database, its shape, its rate limits). It signs in as a staff member (the
demo's administrator by default) only to read which customers exist, then ``--callers`` threads, each with
its own keep-alive connection, post ``POST /api/v1/admin/aml/transactions`` with the service key: top-ups
and card payments of a few Emalageni for random customers, each with a new ``externalId``. ``--rounds``
rounds of ``--payments`` payments; printed per round and as medians: payments per second, p50/p95/p99 in
milliseconds, answers by status. A 429 (the key's budget, ``RATE_LIMIT_TRANSACTIONS``) is counted apart:
a run longer than the budget's minute measures the limit, not the server.
"""

import argparse
import http.client
import json
import os
import random
import statistics
import threading
import time
import uuid
from collections import Counter
from urllib.parse import urlsplit

TYPES = (("TOP_UP", "WALLET"), ("CARD_PAYMENT", "CARD"), ("VENDOR_PAYMENT", "WALLET"))


def _connection(url: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=60)


def _call(conn, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers or {})
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"{}")


def customers(url: str, email: str, password: str, limit: int) -> list[str]:
    conn = _connection(url)
    status, answer = _call(
        conn,
        "POST",
        "/api/v1/auth/admin/login",
        {"email": email, "password": password},
        {"Content-Type": "application/json"},
    )
    if status != 200:
        raise SystemExit(f"sign-in as {email} answered {status}: {answer}")
    token = answer["data"]["accessToken"]
    status, answer = _call(
        conn, "GET", f"/api/v1/admin/users?limit={limit}", headers={"Authorization": f"Bearer {token}"}
    )
    if status != 200 or not answer.get("data"):
        raise SystemExit(f"the customer list answered {status}: {answer}")
    return [row["id"] for row in answer["data"]]


def one_round(url: str, key: str, users: list[str], payments: int, callers: int, rng: random.Random) -> dict:
    bodies = []
    for _ in range(payments):
        kind, channel = rng.choice(TYPES)
        bodies.append(
            {
                "externalId": f"bench-{uuid.uuid4().hex}",
                "userId": rng.choice(users),
                "type": kind,
                "amount": round(rng.uniform(1, 40), 2),
                "channel": channel,
            }
        )
    latencies: list[float] = []
    statuses: Counter = Counter()
    lock = threading.Lock()
    headers = {"Content-Type": "application/json", "X-API-Key": key}

    def work(chunk):
        conn = _connection(url)
        mine, seen = [], Counter()
        for body in chunk:
            started = time.perf_counter()
            try:
                status, _ = _call(conn, "POST", "/api/v1/admin/aml/transactions", body, headers)
            except OSError:
                seen["no answer"] += 1
                conn.close()
                conn = _connection(url)
                continue
            mine.append((time.perf_counter() - started) * 1000)
            seen[status] += 1
        conn.close()
        with lock:
            latencies.extend(mine)
            statuses.update(seen)

    threads = [threading.Thread(target=work, args=(bodies[i::callers],)) for i in range(callers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")

    return {
        "per_s": len(latencies) / elapsed,
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "statuses": dict(statuses),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--key", required=True, help="a service key with transactions.record")
    parser.add_argument("--email", default="admin@vikela.demo")
    parser.add_argument("--password", default=os.environ.get("BENCH_PASSWORD", "Vikela-Demo-2026!"))
    parser.add_argument("--callers", type=int, default=8)
    parser.add_argument("--payments", type=int, default=600, help="payments per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    users = customers(args.url, args.email, args.password, 100)
    rng = random.Random(args.seed)
    one_round(args.url, args.key, users, 4 * args.callers, args.callers, rng)  # every worker and thread warm
    print(f"{args.url}, {len(users)} customers, {args.callers} callers; load average {os.getloadavg()}")
    results = []
    for number in range(1, args.rounds + 1):
        result = one_round(args.url, args.key, users, args.payments, args.callers, rng)
        results.append(result)
        print(
            f"  round {number}: {result['per_s']:6.1f}/s  p50 {result['p50']:6.1f} ms  p95 {result['p95']:6.1f} ms  "
            f"p99 {result['p99']:6.1f} ms  {result['statuses']}",
            flush=True,
        )
    print(
        f"median of {args.rounds}: {statistics.median(r['per_s'] for r in results):.1f} payments/s, "
        f"p95 {statistics.median(r['p95'] for r in results):.1f} ms; load average after {os.getloadavg()}"
    )


if __name__ == "__main__":
    main()
