"""Mixed traffic against gunicorn on PostgreSQL, Redis, S3 and a Celery worker, with faults (run on purpose).

    .venv/bin/python bench/load/mixed.py                        # 50 users, 60 s, no fault
    .venv/bin/python bench/load/mixed.py --fault postgres       # PostgreSQL restarted during the load
    .venv/bin/python bench/load/mixed.py --fault redis          # Redis (cache, limits, broker) stopped for a while
    .venv/bin/python bench/load/mixed.py --fault s3             # the S3 server frozen during uploads
    .venv/bin/python bench/load/mixed.py --fault worker         # the Celery worker's processes killed mid-task
    .venv/bin/python bench/load/mixed.py --runs 3 --json out.json

Everything is private and on loopback, on ports from --base-port (default 8460): a PostgreSQL cluster
(initdb in a temporary directory), a redis-server, moto's S3 server, one gunicorn (``scripts/serve``) and
one Celery worker (``scripts/worker``). The machine's shared PostgreSQL and Redis are never touched; every
process is ended by its id at the end.

The driver is threads of ``requests`` (one session per simulated staff member), not Locust: Locust pulls
gevent and a newer setuptools into the shared virtualenv. Each user loops over a weighted mix: user lists,
user searches, PEP searches and name screenings (reads); SARs created and moved, credits with an
Idempotency-Key (retried with the same key after a failure, as a client should), vendor document uploads,
PEP bulk uploads screened in the background (writes); between two requests a user pauses for a uniform
``--think`` (default 1-3 s, Locust's ``between(1, 3)``: people read what they asked for; ``--think 0`` is the
closed loop that measures how much the server can take). The payment platform is not a person: with its
service key it sends the payment intake (POST /admin/aml/transactions) at ``--intake-rate`` per second on a
fixed schedule, whatever the answers take (skipped when the endpoint is 404). Beside it, the platform's retries
at their worst: ``--pairs-per-second`` times a second a debit of a wallet's balance minus one is sent twice at
the same moment with one ``externalId``, and any pair answered two different ways (201 beside 409) is a bad
answer; before the load, 60 invented keys carrying the real key's public prefix must leave its budget untouched
(the prefix lockout probe).

Every answer is classified: 2xx, a 503 in the JSON envelope (what a fault may cause), or a *bad failure*
(any other 5xx, HTML, no envelope, a time-out). Every acknowledged write is written to a file, and afterwards
``bench/load/reconcile.py`` checks them against the database and S3 (``manage.py shell``). Printed:
requests/s, p50/p95/p99 by kind, error rates, recovery time after the fault, and the reconciliation.
"""

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")

from backoffice.tests.servers import (  # noqa: E402  (the test suite's private servers, ended by process id)
    PostgresCluster,
    RedisServer,
    _end,
    app_env,
    children,
    port_open,
    wait_until,
)
from backoffice.tests.uploads.corpus import handmade_pdf  # noqa: E402  (a well-formed PDF, as the tests send)

PYTHON = ROOT / ".venv" / "bin" / "python"
PASSWORD = "Load-test-password-1"
BUCKET = "vikela-load"
TIMEOUT = 15  # a request not answered in this long counts as a hang

SEED = """
import random
from kyc.services import user_name_index
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory
from compliance.peps.services.pep import pep_bulk_create
random.seed(7)
FIRST = ["Sipho", "Thandeka", "Bongani", "Nomsa", "Mandla", "Lindiwe", "Sibusiso", "Zanele", "Themba", "Nokuthula"]
LAST = ["Dlamini", "Nkambule", "Simelane", "Mamba", "Shongwe", "Magagula", "Hlophe", "Mavuso", "Zwane", "Motsa"]
users = []
for n in range({users}):
    u = PlatformUserFactory(first_name=random.choice(FIRST) + ("" if n % 3 else f" {{chr(65 + n % 26)}}"),
                            last_name=random.choice(LAST) + f"{{n:04d}}", phone_number=f"+26878{{n:06d}}",
                            email=f"load{{n}}@load.test", referral_code=f"LOAD{{n:06d}}")
    user_name_index(user=u)
for n in range(30):
    VendorFactory()
pep_bulk_create(actor=None, items=[(i, {{"name": f"Seeded Pep{{i:04d}} Official", "country": "Eswatini"}})
                                   for i in range(300)])
print("seeded")
"""


class Stack:
    """The private servers of one run, on consecutive ports from ``base``."""

    def __init__(self, base: int, directory: Path, users: int, workers: int = 4, threads: int = 4):
        self.directory, self.users = directory, users
        self.postgres = PostgresCluster()
        self.postgres.port = base + 1
        self.redis = RedisServer(directory)
        self.redis.port = base + 2
        self.s3_port, self.web_port = base + 3, base + 4
        self.s3 = self.web = self.worker = None
        (directory / "metrics").mkdir()
        self.env = app_env(
            DATABASE_URL=self.postgres.url("vikela"),
            DATABASE_CONN_MAX_AGE="60",
            REDIS_URL=f"redis://127.0.0.1:{self.redis.port}/0",
            CELERY_BROKER_URL=f"redis://127.0.0.1:{self.redis.port}/1",
            CELERY_VISIBILITY_TIMEOUT="60",
            AWS_STORAGE_BUCKET_NAME=BUCKET,
            AWS_S3_ENDPOINT_URL=f"http://127.0.0.1:{self.s3_port}",
            AWS_S3_REGION_NAME="us-east-1",
            AWS_ACCESS_KEY_ID="load",
            AWS_SECRET_ACCESS_KEY="load",
            AWS_S3_CONNECT_TIMEOUT="2",
            AWS_S3_READ_TIMEOUT="5",
            PROMETHEUS_MULTIPROC_DIR=str(directory / "metrics"),
            RATE_LIMIT_STANDARD="1000000/m",
            RATE_LIMIT_BULK="100000/m",
            RATE_LIMIT_AUTH="100000/m",
            WEB_CONCURRENCY=str(workers),
            GUNICORN_THREADS=str(threads),
            PEP_SCREEN_INLINE_MAX="20",
            PEP_SCREENING_CHUNK="10",
            LOG_LEVEL="WARNING",
        )

    # ---------------------------------------------------------------- the parts

    def start_s3(self) -> None:
        with open(self.directory / "moto.log", "ab") as log:
            self.s3 = subprocess.Popen(
                [str(ROOT / ".venv/bin/moto_server"), "-H", "127.0.0.1", "-p", str(self.s3_port)],
                stdout=log,
                stderr=log,
            )
        wait_until(lambda: port_open(self.s3_port), what="moto")

    def start_web(self) -> None:
        with open(self.directory / "gunicorn.log", "ab") as log:
            self.web = subprocess.Popen(
                ["./scripts/serve", "127.0.0.1", str(self.web_port)], cwd=ROOT, env=self.env, stdout=log, stderr=log
            )
        wait_until(lambda: port_open(self.web_port), timeout=90, what="gunicorn")

    def start_worker(self) -> None:
        with open(self.directory / "worker.log", "ab") as log:
            self.worker = subprocess.Popen(
                ["./scripts/worker", "default", "2", "load"],
                cwd=ROOT,
                env={**self.env, "LOG_LEVEL": "INFO"},  # its "ready" line, and each task's start and end
                stdout=log,
                stderr=log,
            )

    def supervise(self) -> None:
        """Start the worker again when it exits, as systemd's Restart=always would (Celery's worker exits on
        some broker connection losses: "Unrecoverable error" from kombu's Redis transport)."""
        while not self.stopping.wait(1):
            if self.worker is not None and self.worker.poll() is not None:
                self.worker_restarts += 1
                self.start_worker()

    def manage(self, *args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            [str(PYTHON), "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def up(self) -> None:
        self.postgres.start()
        self.postgres.create_database("vikela")
        self.redis.start()
        self.start_s3()
        import boto3

        boto3.client(
            "s3",
            endpoint_url=self.env["AWS_S3_ENDPOINT_URL"],
            region_name="us-east-1",
            aws_access_key_id="load",
            aws_secret_access_key="load",
        ).create_bucket(Bucket=BUCKET)
        self.manage("migrate", "--noinput")
        for role in ("admin", "compliance_officer"):
            self.manage("create_staff", "--email", f"{role}@load.test", "--password", PASSWORD, "--role", role)
        self.manage("shell", stdin=SEED.format(users=self.users))
        self.start_web()
        self.start_worker()
        self.stopping, self.worker_restarts = threading.Event(), 0
        threading.Thread(target=self.supervise, daemon=True).start()

    def down(self) -> None:
        if hasattr(self, "stopping"):
            self.stopping.set()
        _end(self.worker)
        _end(self.web, signal.SIGINT)
        _end(self.s3)
        self.redis.stop()
        self.postgres.remove()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"


# ---------------------------------------------------------------- the traffic


class Record:
    """Every answer (kind, start, seconds, status, class) and every acknowledged write."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers: list[tuple] = []
        self.acks: dict[str, list] = defaultdict(list)
        self.bad: list[dict] = []

    def answer(self, kind, started, seconds, status, outcome, detail=""):
        with self.lock:
            self.answers.append((kind, started, seconds, status, outcome))
            if outcome == "bad" and len(self.bad) < 50:
                self.bad.append({"kind": kind, "status": status, "detail": detail[:300], "at": started})

    def ack(self, kind, value):
        with self.lock:
            self.acks[kind].append(value)


def classify(response) -> tuple[str, str]:
    """ok, unavailable (503 in the JSON envelope), client (4xx in the envelope) or bad."""
    if response is None:
        return "bad", "no answer (time-out or connection refused)"
    content_type = response.headers.get("Content-Type", "")
    if 200 <= response.status_code < 300:
        return "ok", ""
    try:
        body = response.json()
        envelope = body.get("success") is False and isinstance(body.get("error"), dict)
    except ValueError:
        envelope = False
    if response.status_code == 503 and envelope and "json" in content_type:
        return "unavailable", ""
    if 400 <= response.status_code < 500 and envelope:
        return "client", response.text[:200]
    return "bad", f"{response.status_code} {content_type} {response.text[:200]}"


class Client:
    def __init__(
        self, stack: Stack, record: Record, credentials: dict, data: dict, think: tuple[float, float] = (0, 0)
    ):
        self.base, self.record, self.data, self.think = stack.base, record, data, think
        self.session = requests.Session()
        self.session.headers.update(credentials)  # a staff member's bearer token, or a service's key
        self.pending_credits: list[dict] = []

    def call(self, kind, method, path, **kwargs):
        started = time.time()
        try:
            response = self.session.request(method, self.base + path, timeout=TIMEOUT, **kwargs)
        except requests.RequestException as error:
            response, detail = None, repr(error)
        else:
            detail = ""
        outcome, why = classify(response)
        self.record.answer(
            kind, started, time.time() - started, getattr(response, "status_code", 0), outcome, why or detail
        )
        return response if outcome == "ok" else None

    # reads
    def list_users(self):
        self.call("read:user list", "GET", f"/api/v1/admin/users?page={random.randint(1, 20)}&limit=20")

    def search_users(self):
        self.call(
            "read:user search",
            "GET",
            f"/api/v1/admin/users/search?q={random.choice(['Sipho', 'Dlamini', 'Nomsa Mamba', 'Zwane'])}",
        )

    def search_peps(self):
        self.call("read:pep search", "GET", "/api/v1/admin/aml/pep/search?q=Pep0" + str(random.randint(0, 2)))

    def screen_name(self):
        self.call("read:pep screen", "POST", "/api/v1/admin/aml/pep/screen", json={"name": "Seeded Pep0123 Official"})

    def list_sars(self):
        self.call("read:sar list", "GET", "/api/v1/admin/aml/sars?limit=20")

    # writes
    def sar(self):
        body = {
            "entityUserId": random.choice(self.data["users"]),
            "suspiciousActivityType": "structuring",
            "activityDescription": "Cash deposits kept just under the reporting threshold over a week.",
            "dateOfSuspiciousActivity": "2026-11-01",
            "amountInvolved": 12000,
        }
        response = self.call("write:sar create", "POST", "/api/v1/admin/aml/sars", json=body)
        if response is None:
            return
        sar_id = response.json()["data"]["id"]
        self.record.ack("sar", {"id": sar_id, "status": "DRAFT"})
        moved = self.call(
            "write:sar move", "PUT", f"/api/v1/admin/aml/sars/{sar_id}/status", json={"status": "PENDING_REVIEW"}
        )
        if moved is not None:
            self.record.ack("sar", {"id": sar_id, "status": "PENDING_REVIEW"})

    def credit(self):
        # a credit that failed is sent again with the same key, as a careful client does
        if self.pending_credits and random.random() < 0.7:
            credit = self.pending_credits.pop(0)
        else:
            credit = {
                "user": random.choice(self.data["users"]),
                "key": uuid.uuid4().hex,
                "amount": random.randint(1, 500),
            }
        response = self.call(
            "write:credit",
            "POST",
            f"/api/v1/admin/users/{credit['user']}/add-balance",
            json={"amount": credit["amount"], "reason": "load test"},
            headers={"Idempotency-Key": credit["key"]},
        )
        if response is None:
            self.pending_credits.append(credit)
        else:
            self.record.ack("credit", credit)

    def upload(self):
        vendor = random.choice(self.data["vendors"])
        key = random.choice(["companyRegistration", "taxClearance", "bankStatement"])
        data = os.urandom(random.randint(1000, 60000))
        pdf = handmade_pdf(objects=(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data),))
        response = self.call(
            "write:upload",
            "POST",
            f"/api/v1/admin/vendors/{vendor}/kyc/upload",
            data={"documentKey": key},
            files={"file": (f"{key}.pdf", pdf, "application/pdf")},
        )
        if response is not None:
            self.record.ack("upload", {"vendor": vendor, "documentKey": key, "size": len(pdf)})

    def pep_bulk(self):
        tag = uuid.uuid4().hex[:10]
        peps = [{"name": f"Loadpep {tag} Number{i:03d}", "country": "Eswatini"} for i in range(40)]
        response = self.call("write:pep bulk", "POST", "/api/v1/admin/aml/pep/bulk", json={"peps": peps})
        if response is not None:
            run = response.json()["data"]["matching"].get("screeningRunId")
            self.record.ack("pep_bulk", {"names": [p["name"] for p in peps], "run": run})

    MIX = [
        (list_users, 20),
        (search_users, 15),
        (search_peps, 10),
        (screen_name, 8),
        (list_sars, 8),
        (sar, 6),
        (credit, 10),
        (upload, 5),
        (pep_bulk, 1),
    ]

    def run(self, until: float):
        actions = [a for a, _ in self.MIX]
        weights = [w for _, w in self.MIX]
        while time.time() < until:
            random.choices(actions, weights)[0](self)
            # a person reads the page before the next click (Locust's ``between(lo, hi)``); 0 is a closed loop
            if self.think[1] > 0:
                time.sleep(min(random.uniform(*self.think), max(0.0, until - time.time())))
        # what is still unacknowledged gets a last try once the faults are over (a client's retry)
        for credit in self.pending_credits[:]:
            self.pending_credits = [credit]
            self.credit()


class PaymentPlatform(Client):
    """The payment platform's intake at its own steady rate, with its service key (not a person: no think time).

    Paced open-loop: each of its threads sends on a fixed schedule whatever the answers take, so a slow server
    meets the same offered rate instead of a politely slowing client.
    """

    def __init__(self, stack: Stack, record: Record, key: str, data: dict, rate: float):
        super().__init__(stack, record, {"X-API-Key": key}, data)
        self.interval = 1.0 / rate

    def payment(self):
        body = {
            "userId": random.choice(self.data["users"]),
            "type": "TOP_UP",
            "amount": random.randint(10, 5000),
            # the contract's idempotency key; the intake refuses any other field (a 400 for every payment)
            "externalId": "load-" + uuid.uuid4().hex,
        }
        response = self.call("write:intake", "POST", "/api/v1/admin/aml/transactions", json=body)
        if response is not None:
            self.record.ack("intake", body)

    def run(self, until: float):
        next_at = time.time() + random.uniform(0, self.interval)
        while next_at < until:
            time.sleep(max(0.0, next_at - time.time()))
            self.payment()
            next_at = max(next_at + self.interval, time.time() - self.interval)  # late: no catch-up burst


class DuplicatePairs(Client):
    """The platform retrying while its first call is still being decided: a debit of the wallet's balance
    minus one, sent twice at the same moment with one ``externalId`` (each on a connection of its own). Both
    answers must be the first answer (201 and 200, one transaction); a 201 beside a 409 INSUFFICIENT_FUNDS
    is a contradiction, counted as a bad answer. Its wallets are its own (``users``), topped up first so the
    balance is known from the answer."""

    def __init__(self, stack: Stack, record: Record, key: str, data: dict, users: list[str], pause: float):
        super().__init__(stack, record, {"X-API-Key": key}, data)
        self.key, self.users, self.pause = key, users, pause
        self.pairs = self.contradictions = 0

    def pair(self, user: str) -> None:
        top_up = {"userId": user, "type": "TOP_UP", "amount": 100, "externalId": "load-" + uuid.uuid4().hex}
        response = self.call("write:intake", "POST", "/api/v1/admin/aml/transactions", json=top_up)
        if response is None:
            return
        self.record.ack("intake", top_up)
        balance = response.json()["data"]["balance"]
        debit = {"userId": user, "type": "WITHDRAWAL", "amount": round(balance - 1, 2)}
        debit["externalId"] = "pair-" + uuid.uuid4().hex
        barrier, answers = threading.Barrier(2), [None, None]

        def send(index: int) -> None:
            with requests.Session() as session:
                session.headers["X-API-Key"] = self.key
                barrier.wait()
                started = time.time()
                try:
                    answers[index] = session.post(
                        self.base + "/api/v1/admin/aml/transactions", json=debit, timeout=TIMEOUT
                    )
                except requests.RequestException:
                    answers[index] = None
                outcome, why = classify(answers[index])
                if outcome == "client":  # a 409 is a refusal, an answer in its own right: compared below
                    outcome = "ok"
                status = getattr(answers[index], "status_code", 0)
                self.record.answer("write:intake-pair", started, time.time() - started, status, outcome, why)

        senders = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
        if any(a is None or a.status_code >= 500 for a in answers):
            return  # a fault's doing (no answer, 503): nothing to compare
        self.pairs += 1
        seen = [(a.json().get("data") or {}).get("transactionId") or a.json()["error"]["code"] for a in answers]
        if seen[0] != seen[1] or sorted(a.status_code for a in answers) not in ([200, 201], [409, 409]):
            self.contradictions += 1
            detail = " / ".join(f"{a.status_code} {a.text[:120]}" for a in answers)
            self.record.answer("write:intake-pair", time.time(), 0.0, 409, "bad", "contradictory answers: " + detail)
        elif 201 in [a.status_code for a in answers]:
            self.record.ack("intake", debit)

    def run(self, until: float):
        while time.time() < until:
            self.pair(random.choice(self.users))
            time.sleep(self.pause)


def prefix_lockout_probe(base: str, key: str, user: str, strangers: int = 60) -> dict:
    """``strangers`` invented keys carrying the real key's public prefix, then the real key: its budget must be
    untouched (its X-RateLimit-Remaining falls by its own request only) and its request served."""
    prefix = key.split("_")[1]
    url = base + "/api/v1/admin/aml/transactions/dry-run"
    body = {"userId": user, "type": "TOP_UP", "amount": 1}
    before = requests.post(url, json=body, headers={"X-API-Key": key}, timeout=TIMEOUT)
    invented = [
        requests.post(url, json=body, headers={"X-API-Key": f"vk_{prefix}_invented-{i}"}, timeout=TIMEOUT).status_code
        for i in range(strangers)
    ]
    after = requests.post(url, json=body, headers={"X-API-Key": key}, timeout=TIMEOUT)
    spent = int(before.headers["X-RateLimit-Remaining"]) - int(after.headers["X-RateLimit-Remaining"])
    return {
        "strangers": dict(sorted((str(code), invented.count(code)) for code in set(invented))),
        "real_key_after": after.status_code,
        "real_key_budget_spent_by_strangers": spent - 1,
        "locked_out": after.status_code == 429 or spent != 1,
    }


def login(base: str, email: str) -> str:
    response = requests.post(base + "/api/v1/auth/admin/login", json={"email": email, "password": PASSWORD}, timeout=30)
    response.raise_for_status()
    return response.json()["data"]["accessToken"]


def reference_data(stack: Stack) -> dict:
    out = stack.manage(
        "shell",
        "-c",
        "import json; from kyc.models import PlatformUser; from vendors.models import Vendor;"
        "print(json.dumps({'users': [str(p) for p in PlatformUser.objects.values_list('pk', flat=True)[:500]],"
        "'vendors': [str(p) for p in Vendor.objects.values_list('pk', flat=True)]}))",
    )
    return json.loads(out.strip().splitlines()[-1])


# ---------------------------------------------------------------- faults


def fault(stack: Stack, kind: str, start: float, length: float, log: list) -> None:
    time.sleep(max(0.0, start - time.time()))
    began = time.time()
    if kind == "postgres":
        stack.postgres.stop()
        time.sleep(length)
        stack.postgres.start()
    elif kind == "redis":
        stack.redis.stop()
        time.sleep(length)
        stack.redis.start()
    elif kind == "s3":
        os.kill(stack.s3.pid, signal.SIGSTOP)  # moto keeps its objects in memory: frozen, not killed
        time.sleep(length)
        os.kill(stack.s3.pid, signal.SIGCONT)
    elif kind == "worker":
        end = time.time() + length
        while time.time() < end:
            for pid in children(stack.worker.pid):
                try:
                    os.kill(pid, signal.SIGKILL)  # a pool process dies mid-task; Celery starts another
                except ProcessLookupError:
                    pass
            time.sleep(2)
    log.append({"fault": kind, "began": began, "ended": time.time()})


# ---------------------------------------------------------------- figures


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(record: Record, seconds: float, faults: list) -> dict:
    by_kind: dict[str, list] = defaultdict(list)
    for kind, _started, took, status, outcome in record.answers:
        by_kind[kind].append((took, outcome, status))
    total = len(record.answers)
    out = {
        "requests": total,
        "rps": total / seconds,
        "kinds": {},
        "outcomes": defaultdict(int),
    }
    for kind, rows in sorted(by_kind.items()):
        ok = [took for took, outcome, _ in rows if outcome == "ok"]
        counts = defaultdict(int)
        for _, outcome, _ in rows:
            counts[outcome] += 1
            out["outcomes"][outcome] += 1
        out["kinds"][kind] = {
            "n": len(rows),
            "p50_ms": percentile(ok, 0.5) * 1000,
            "p95_ms": percentile(ok, 0.95) * 1000,
            "p99_ms": percentile(ok, 0.99) * 1000,
            "errors": {k: v for k, v in counts.items() if k != "ok"},
        }
    reads = [took for kind, _, took, _, outcome in record.answers if kind.startswith("read") and outcome == "ok"]
    out["reads_p95_ms"] = percentile(reads, 0.95) * 1000
    if faults:
        ended = faults[-1]["ended"]
        failures_after = [s for _, s, _, _, outcome in record.answers if outcome != "ok" and s > ended]
        out["recovery_s"] = (max(failures_after) - ended) if failures_after else 0.0
        out["fault_window_s"] = faults[-1]["ended"] - faults[-1]["began"]
    out["outcomes"] = dict(out["outcomes"])
    out["bad_examples"] = record.bad[:5]
    return out


def one_run(args, run: int) -> dict:
    directory = Path(tempfile.mkdtemp(prefix="vikela-load-"))
    stack = Stack(args.base_port, directory, args.seed_users, args.workers, args.threads)
    try:
        print(f"run {run}: starting private servers in {directory}", flush=True)
        stack.up()
        data = reference_data(stack)
        token = login(stack.base, "admin@load.test")
        probe = requests.post(
            stack.base + "/api/v1/admin/aml/transactions",
            json={},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        intake = probe.status_code != 404
        print(f"run {run}: payment intake {'answers' if intake else 'is 404: skipped'}", flush=True)
        # the worker is up before the clock starts
        wait_until(lambda: "ready" in (directory / "worker.log").read_text(), timeout=120, what="the worker")
        record = Record()
        load_before = os.getloadavg()  # the machine is shared: the figures mean little without its load
        started = time.time()
        until = started + args.seconds
        faults: list = []
        think = tuple(float(x) for x in args.think.split("-")) if "-" in args.think else (0.0, 0.0)
        threads = [
            threading.Thread(
                target=Client(stack, record, {"Authorization": f"Bearer {token}"}, data, think).run, args=(until,)
            )
            for _ in range(args.users)
        ]
        pairs = None
        if intake and args.intake_rate > 0:
            key = stack.manage("create_service_key", "--name", f"load-{run}").strip().splitlines()[-1]
            probe_result = prefix_lockout_probe(stack.base, key, data["users"][0])
            print(f"run {run}: prefix lockout probe {probe_result}", flush=True)
            if args.pairs_per_second > 0:
                # wallets of their own: the other senders never touch the balance a pair is sized on
                own, data = data["users"][:20], {**data, "users": data["users"][20:]}
                pairs = DuplicatePairs(stack, record, key, data, own, 1.0 / args.pairs_per_second)
                threads.append(threading.Thread(target=pairs.run, args=(until,)))
            # a few senders share the rate, so one slow answer does not hold the schedule
            senders = max(1, min(8, int(args.intake_rate // 5)))
            threads += [
                threading.Thread(
                    target=PaymentPlatform(stack, record, key, data, args.intake_rate / senders).run, args=(until,)
                )
                for _ in range(senders)
            ]
        if args.fault != "none":
            threads.append(
                threading.Thread(
                    target=fault, args=(stack, args.fault, started + args.seconds / 3, args.fault_seconds, faults)
                )
            )
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=args.seconds + 120)
        elapsed = time.time() - started
        result = figures(record, elapsed, faults)
        result["fault"] = args.fault
        result["load_average"] = {"start": load_before, "end": os.getloadavg()}
        result["worker_restarts_during_load"] = stack.worker_restarts
        if intake and args.intake_rate > 0:
            result["prefix_lockout"] = probe_result
        if pairs is not None:
            result["duplicate_pairs"] = {"pairs": pairs.pairs, "contradictory": pairs.contradictions}
        # the background work the traffic started is allowed to finish (the worker picks up what was lost)
        acks = directory / "acks.json"
        acks.write_text(json.dumps(record.acks))
        result["reconciliation"] = json.loads(
            stack.manage("shell", stdin=(ROOT / "bench/load/reconcile.py").read_text().replace("ACKS_FILE", str(acks)))
            .strip()
            .splitlines()[-1]
        )
        return result
    finally:
        stack.down()


def report(n: int, result: dict) -> None:
    print(f"\n== run {n}: fault {result['fault']}, {result['requests']} requests, {result['rps']:.1f} req/s")
    load = result["load_average"]
    print(f"   load average (1, 5, 15 min) at the start {load['start']}, at the end {load['end']}")
    print(f"   outcomes {result['outcomes']}; reads p95 {result['reads_p95_ms']:.0f} ms", end="")
    print(f"; recovery {result['recovery_s']:.1f} s after the fault" if "recovery_s" in result else "")
    for kind, k in result["kinds"].items():
        times = f"p50 {k['p50_ms']:7.1f}  p95 {k['p95_ms']:7.1f}  p99 {k['p99_ms']:7.1f} ms"
        print(f"   {kind:<18} n={k['n']:>5}  {times}  {k['errors'] or ''}")
    print(f"   worker restarted by the supervisor: {result.get('worker_restarts_during_load', 0)} time(s)")
    if "duplicate_pairs" in result:
        print(f"   concurrent duplicates: {result['duplicate_pairs']}")
    if "prefix_lockout" in result:
        print(f"   prefix lockout probe: {result['prefix_lockout']}")
    print(f"   reconciliation: {result['reconciliation']}")
    for bad in result["bad_examples"]:
        print(f"   BAD: {bad}")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=50, help="concurrent simulated staff members")
    parser.add_argument("--seconds", type=int, default=60, help="length of the load")
    parser.add_argument(
        "--think",
        default="1-3",
        help="each staff member's pause between requests, LO-HI seconds (uniform); 0: no pause, a closed loop",
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (WEB_CONCURRENCY)")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker (GUNICORN_THREADS)")
    parser.add_argument("--intake-rate", type=float, default=10, help="payments per second from the platform")
    parser.add_argument(
        "--pairs-per-second", type=float, default=1, help="concurrent duplicate payments (two at once, one id)"
    )
    parser.add_argument("--fault", choices=["none", "postgres", "redis", "s3", "worker"], default="none")
    parser.add_argument("--fault-seconds", type=float, default=10, help="how long the fault lasts")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed-users", type=int, default=2000)
    parser.add_argument("--base-port", type=int, default=8460)
    parser.add_argument("--json", help="write the runs' figures here")
    args = parser.parse_args()
    results = []
    for n in range(1, args.runs + 1):
        results.append(one_run(args, n))
        report(n, results[-1])  # each run's figures as soon as it ends
    if len(results) > 1:
        print(
            "\nmedians over runs: req/s",
            statistics.median(r["rps"] for r in results),
            "reads p95 ms",
            statistics.median(r["reads_p95_ms"] for r in results),
        )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
