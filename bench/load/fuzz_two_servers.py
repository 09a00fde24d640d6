"""schemathesis against two app servers behind HAProxy, as each staff role (run on purpose, bounded in time).

    .venv/bin/python bench/load/fuzz_two_servers.py                       # ports 8400 (haproxy), 8401, 8402
    .venv/bin/python bench/load/fuzz_two_servers.py --seconds 60 --examples 10 --roles admin,support

The set-up of ``bench/load/two_servers.py`` (one SQLite database migrated once, two gunicorns with two
workers each sharing Redis database 3, Debian's HAProxy round robin in front), with a staff member of every
role. For each role: sign in through HAProxy, then ``st run`` the OpenAPI schema (``/api/schema/``) against
HAProxy with that role's JWT, for at most ``--seconds``. The sign-in, sign-out and password endpoints are
left out (fuzzing them would end the session the run uses); everything else is in, writes included (the
database is thrown away). Prints, per role, the operations tested and the failures by check, and writes
each role's JSON report next to the logs.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from two_servers import (  # noqa: E402
    HAPROXY,
    HAPROXY_CONFIG,
    PYTHON,
    REDIS_URL,
    ROOT,
    SECRET,
    stop,
    wait_for,
    warm_up,
)

PASSWORD = "Fuzz-password-for-roles-1"
ROLES = ["support", "compliance_officer", "mlro", "finance", "admin"]
EXCLUDED = r"/auth/|/logout|/password"


def sign_in(front: int, email: str) -> str:
    request = urllib.request.Request(
        f"http://127.0.0.1:{front}/api/v1/auth/admin/login",
        data=json.dumps({"email": email, "password": PASSWORD}).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())["data"]["accessToken"]


def fuzz(role: str, token: str, *, front: int, seconds: int, examples: int, directory: Path) -> dict:
    report = directory / f"{role}.json"
    command = [
        str(ROOT / ".venv/bin/st"),
        "run",
        f"http://127.0.0.1:{front}/api/schema/",
        "--url",
        f"http://127.0.0.1:{front}",
        "-H",
        f"Authorization: Bearer {token}",
        "--max-time",
        str(seconds),
        "--max-examples",
        str(examples),
        "--request-timeout",
        "30",
        "--exclude-path-regex",
        EXCLUDED,
        "--seed",
        "18",
        "--report",
        "json",
        "--report-json-path",
        str(report),
        "--no-color",
    ]
    started = time.monotonic()
    # in its own directory: st keeps a cache (.schemathesis/) where it runs
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=seconds + 300)
    (directory / f"{role}.out").write_text(done.stdout + done.stderr)
    summary = {"role": role, "seconds": round(time.monotonic() - started), "exit": done.returncode}
    try:
        data = json.loads(report.read_text())
    except (OSError, ValueError):
        summary["tail"] = [line for line in done.stdout.splitlines() if line.strip()][-12:]
        return summary
    summary["operations"] = data["operations"]["tested"]
    summary["cases"] = data["test_cases"]["generated"]
    summary["failures"] = {
        f"{failure['code']} {failure['title']}": (failure["count"], failure["operations"])
        for failure in data["failures"]
    }
    # warnings are {kind: [operations]}: say how many operations each covers (a role's 403s are "missing_auth")
    summary["warnings"] = [
        f"warning {kind}: {len(ops or [])} operations" for kind, ops in (data["warnings"] or {}).items()
    ]
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=90, help="schemathesis' time budget per role")
    parser.add_argument("--examples", type=int, default=10, help="examples per operation")
    parser.add_argument("--roles", default=",".join(ROLES))
    parser.add_argument("--base-port", type=int, default=8400, help="haproxy; the servers take the next two")
    args = parser.parse_args()
    if not Path(HAPROXY).exists():
        raise SystemExit("haproxy is not installed (apt-get install haproxy)")
    directory = Path(tempfile.mkdtemp(prefix="vikela-fuzz-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(
        ENVIRONMENT="production",
        DEBUG="false",
        SECRET_KEY=SECRET,
        DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}",
        MEDIA_ROOT=str(directory / "media"),
        LOG_LEVEL="WARNING",
        REDIS_URL=REDIS_URL,
        WEB_CONCURRENCY="2",
        # fuzzing sends far more than a person: the limits would answer most of it with 429
        RATE_LIMIT_STANDARD="100000/m",
        RATE_LIMIT_BULK="100000/m",
        RATE_LIMIT_AUTH="100000/m",
        PROMETHEUS_MULTIPROC_DIR=str(directory / "metrics"),
    )
    (directory / "metrics").mkdir()
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()

    def manage(*command: str) -> None:
        subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)

    manage("migrate", "--noinput", "-v0")
    roles = args.roles.split(",")
    for role in roles:
        manage("create_staff", "--email", f"{role}@fuzz.test", "--password", PASSWORD, "--role", role)
    front, a, b = args.base_port, args.base_port + 1, args.base_port + 2
    servers, proxy = [], None
    try:
        for port in (a, b):
            log = open(directory / f"server-{port}.log", "ab")
            servers.append(
                subprocess.Popen(["./scripts/serve", "127.0.0.1", str(port)], cwd=ROOT, env=env, stdout=log, stderr=log)
            )
        config = directory / "haproxy.cfg"
        config.write_text(HAPROXY_CONFIG.format(front=front, a=a, b=b))
        for port in (a, b):
            wait_for(port)
            warm_up(port)
        proxy = subprocess.Popen(
            [HAPROXY, "-f", str(config), "-db"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_for(front)
        results = []
        for role in roles:
            token = sign_in(front, f"{role}@fuzz.test")
            results.append(
                fuzz(role, token, front=front, seconds=args.seconds, examples=args.examples, directory=directory)
            )
            result = results[-1]
            print(
                f"== {role}: {result.get('operations')} operations, {result.get('cases')} test cases"
                f" in {result['seconds']} s",
                flush=True,
            )
            for title, (count, operations) in result.get("failures", {}).items():
                print(f"   {count:>4} {title}: {', '.join(operations[:6])}{' ...' if len(operations) > 6 else ''}")
            for line in result.get("warnings", []) + result.get("tail", []):
                print("   " + line[:300], flush=True)
    finally:
        if proxy is not None:
            stop(proxy)
        for server in servers:
            stop(server)
    errors = sum("Traceback" in (directory / f"server-{port}.log").read_text(errors="replace") for port in (a, b))
    print(f"server logs with a traceback: {errors} of 2; reports and logs in {directory}")
    if "--keep" not in sys.argv:
        for path in directory.glob("*.sqlite3*"):
            path.unlink()
    shutil.rmtree(directory / "media", ignore_errors=True)


if __name__ == "__main__":
    main()
