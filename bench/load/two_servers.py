"""Two app servers behind HAProxy on loopback: the rate limit holds across both (run on purpose).

    .venv/bin/python bench/load/two_servers.py                 # ports 8400 (haproxy), 8401, 8402
    .venv/bin/python bench/load/two_servers.py --attempts 40 --base-port 8450

Starts, in a temporary directory, one SQLite database (migrated once), two gunicorns (``scripts/serve``, two
workers each) and HAProxy (Debian's ``haproxy``, round robin, health checks on ``/api/v1/health/ready``),
then sends ``--attempts`` sign-ins with a wrong password through HAProxy, one at a time, and counts who
answered what. Twice:

  shared    both servers use Redis (REDIS_URL, database 3, emptied first): one set of counters, so the
            auth limit (RATE_LIMIT_AUTH, 10/m) allows 10 sign-ins in all, whichever server answers;
  separate  no REDIS_URL (each server one worker, counters in its own memory): the baseline, each server
            allows 10, so the client gets twice the limit.

HAProxy's health checks go to the standard bucket, never the auth one, so they do not disturb the count.
Everything listens on 127.0.0.1 and is stopped at the end (by process id); the run takes about a minute.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv" / "bin" / "python"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
REDIS_URL = "redis://127.0.0.1:6379/3"
SECRET = "bench-only-secret-key-not-for-production-use-0123456789"

HAPROXY_CONFIG = """
global
    maxconn 512
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
frontend web
    bind 127.0.0.1:{front}
    default_backend app
backend app
    balance roundrobin
    option httpchk GET /api/v1/health/ready
    http-check expect status 200
    http-response set-header X-Served-By %s
    server a 127.0.0.1:{a} check inter 2s
    server b 127.0.0.1:{b} check inter 2s
"""


def wait_for(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing listens on port {port} after {seconds} s")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def warm_up(port: int) -> None:
    """One request to each worker's first import of the views (on 2 loaded cores it can take seconds)."""
    for _ in range(4):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=60) as response:
            response.read()


def sign_in(front: int) -> tuple[int, str, str]:
    body = json.dumps({"email": "nobody@bench.test", "password": "wrong-password"}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{front}/api/v1/auth/admin/login",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers.get("X-Served-By", "?"), response.headers["X-RateLimit-Remaining"]
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("X-Served-By", "?"), error.headers.get("X-RateLimit-Remaining", "?")


def run(mode: str, *, directory: Path, front: int, a: int, b: int, attempts: int, env: dict) -> dict:
    env = dict(env)
    if mode == "shared":
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
        env.update(REDIS_URL=REDIS_URL, WEB_CONCURRENCY="2")
    servers = []
    for port in (a, b):
        log = open(directory / f"{mode}-{port}.log", "ab")
        servers.append(
            subprocess.Popen(["./scripts/serve", "127.0.0.1", str(port)], cwd=ROOT, env=env, stdout=log, stderr=log)
        )
    config = directory / f"haproxy-{mode}.cfg"
    config.write_text(HAPROXY_CONFIG.format(front=front, a=a, b=b))
    proxy = None
    try:
        for port in (a, b):
            wait_for(port)
            warm_up(port)
        proxy = subprocess.Popen(
            [HAPROXY, "-f", str(config), "-db"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_for(front)
        answers = [sign_in(front) for _ in range(attempts)]
    finally:
        if proxy is not None:
            stop(proxy)
        for server in servers:
            stop(server)
    by_status = Counter(status for status, _, _ in answers)
    served = Counter(server for _, server, _ in answers)
    first_429 = next((i + 1 for i, (status, _, _) in enumerate(answers) if status == 429), None)
    return {
        "mode": mode,
        "allowed": by_status[401],
        "limited": by_status[429],
        "other": attempts - by_status[401] - by_status[429],
        "served": dict(sorted(served.items())),
        "first_429": first_429,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attempts", type=int, default=25)
    parser.add_argument("--base-port", type=int, default=8400, help="haproxy; the servers take the next two")
    args = parser.parse_args()
    if not Path(HAPROXY).exists():
        raise SystemExit("haproxy is not installed (apt-get install haproxy)")
    directory = Path(tempfile.mkdtemp(prefix="vikela-two-servers-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(
        ENVIRONMENT="production",
        DEBUG="false",
        SECRET_KEY=SECRET,
        DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}",
        MEDIA_ROOT=str(directory / "media"),
        LOG_LEVEL="WARNING",
        RATE_LIMIT_AUTH="10/m",
        PROMETHEUS_MULTIPROC_DIR=str(directory / "metrics"),
    )
    (directory / "metrics").mkdir()
    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    front, a, b = args.base_port, args.base_port + 1, args.base_port + 2
    rows = [
        run(mode, directory=directory, front=front, a=a, b=b, attempts=args.attempts, env=env)
        for mode in ("shared", "separate")
    ]
    shutil.rmtree(directory, ignore_errors=True)  # kept when the run fails: its logs say why
    print(
        f"{args.attempts} sign-ins through HAProxy (round robin over two gunicorns), auth limit 10/m per client address"
    )
    print(f"{'counters':<10} {'allowed (401)':>14} {'limited (429)':>14} {'other':>6} {'first 429':>10}  served by")
    for row in rows:
        counts = f"{row['allowed']:>14} {row['limited']:>14} {row['other']:>6} {str(row['first_429']):>10}"
        print(f"{row['mode']:<10} {counts}  {row['served']}")
    shared, separate = rows
    print(f"allowed, separate counters / shared counters: {separate['allowed'] / max(shared['allowed'], 1):.1f}x")
    if shared["allowed"] != 10:
        sys.exit("the limit did not hold across the two servers")


if __name__ == "__main__":
    main()
