"""Benchmark of PEP screening at scale on PostgreSQL: a bulk upload against a million users, and ad-hoc screens.

Loads N users (``bench/kyc_users.py``'s loader, ``generate_series``) and their name index into a database of its
own (default ``bench_peps``), then measures, each figure against a baseline measured in the same run:

* **bulk**: ``POST /api/v1/admin/aml/pep/bulk`` with 10,000 PEPs through the real API (serializers, services,
  blocking, matching, matches, alerts, risk flags, audit), each run in a fresh process on a fresh PEP list:
  total seconds, PEPs per second, peak RSS of the process. Baseline: comparing every (PEP, user) pair with
  no blocking, timed on a sample of the pairs (``--sample`` of the PEPs against ``--user-sample`` of the
  users, 1% x 0.1% by default: 100,000 pairs) and extrapolated to all pairs. Target: under 5 minutes and
  >= 100x faster.
* **screen**: ``POST /api/v1/admin/aml/pep/screen`` against 100,000 PEPs through a gunicorn worker (one
  process, over HTTP): p50 and p95 per query, and that worker's RSS before the first screen and once the
  matcher is loaded and warm. Baseline: the same queries compared with every active PEP, in process.
  Target: p95 under 100 ms.

The PEPs are synthetic and deterministic: 5% with the local names the bench users have (always with a date of
birth), 5% in Cyrillic, the rest pronounceable made-up names from many "languages", 60% with a date of birth.

    .venv/bin/python bench/pep_screening.py                   # 1,000,000 users, 10,000 + 100,000 PEPs
    .venv/bin/python bench/pep_screening.py --users 100000 --runs 1

Data is reused when the database already holds it. Figures are medians of ``--runs`` runs.
"""

import argparse
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import kyc_users  # noqa: E402  (the user loader: names, generate_series)

CATEGORIES = [
    "Head of State",
    "Government Official",
    "Senior Politician",
    "Military Officer",
    "Judge",
    "Central Bank Official",
    "State Enterprise Executive",
    "Family Member",
    "Close Associate",
    "Unknown",
]
COUNTRIES = [
    "Eswatini", "South Africa", "Mozambique", "Zimbabwe", "Botswana", "Namibia", "Lesotho", "Zambia", "Malawi",
    "Kenya", "Nigeria", "Ghana", "Egypt", "Morocco", "France", "Germany", "Italy", "Spain", "Portugal", "Brazil",
    "Argentina", "Mexico", "Russia", "Ukraine", "Poland", "Turkey", "India", "China", "Indonesia", "Philippines",
]  # fmt: skip
POSITIONS = ["Minister", "Deputy Minister", "Member of Parliament", "Judge", "Ambassador", "Governor", "General"]
ONSETS = ["b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "ch", "sh", "th", "kr", "tr"]
VOWELS = ["a", "e", "i", "o", "u", "ai", "ou", "ia"]
CODAS = ["", "", "", "n", "r", "s", "l", "k", "m"]
CYRILLIC_FIRST = ["Владимир", "Сергей", "Алексей", "Дмитрий", "Николай", "Ольга", "Ирина", "Татьяна", "Юрий", "Павел"]
CYRILLIC_LAST = [
    "Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков", "Фёдоров",
    "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов", "Козлов", "Степанов", "Николаев",
]  # fmt: skip
BULK_PEPS = 10_000
SCREEN_PEPS = 100_000
SCREEN_QUERIES = 200


def word(rng: random.Random, syllables: int) -> str:
    text = "".join(rng.choice(ONSETS) + rng.choice(VOWELS) for _ in range(syllables)) + rng.choice(CODAS)
    return text.capitalize()


def make_peps(count: int, seed: int) -> list[dict]:
    """``count`` PEP bodies (API field names), distinct names, deterministic."""
    rng = random.Random(seed)
    seen: set[str] = set()
    peps = []
    while len(peps) < count:
        roll = rng.random()
        dob = None
        if roll < 0.05:  # the names the bench users have
            parts = [rng.choice(kyc_users.FIRST_NAMES), rng.choice(kyc_users.LAST_NAMES)]
            if rng.random() < 0.3:
                parts.insert(1, rng.choice(kyc_users.FIRST_NAMES))
            country = "Eswatini"
            dob = f"{rng.randint(1950, 2003)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        elif roll < 0.10:
            parts = [rng.choice(CYRILLIC_FIRST), rng.choice(CYRILLIC_LAST)]
            if rng.random() < 0.5:
                parts.append(word(rng, 2) + "ич")
            country = rng.choice(["Russia", "Ukraine", "Belarus"])
        else:
            parts = [word(rng, rng.randint(1, 3)), word(rng, rng.randint(2, 4))]
            if rng.random() < 0.2:
                parts.insert(1, word(rng, 2))
            country = rng.choice(COUNTRIES)
        if dob is None and rng.random() < 0.6:
            dob = f"{rng.randint(1930, 1995)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        name = " ".join(parts)
        if name.casefold() in seen:
            continue
        seen.add(name.casefold())
        body = {
            "name": name,
            "category": rng.choice(CATEGORIES),
            "position": rng.choice(POSITIONS),
            "country": country,
            "source": "bench",
        }
        if dob:
            body["dateOfBirth"] = dob
        peps.append(body)
    return peps


def rss_kb(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def median(values):
    return statistics.median(values) if values else float("nan")


def percentile(samples, q):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# ---------------------------------------------------------------- data


def index_user_names() -> None:
    """The users' name index, built in SQL from the keys of each distinct set of name fields (computed once)."""
    from django.db import connection
    from psycopg2.extras import execute_values

    from kyc.services.names import _index_of

    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM kyc_platformuser")
        users = cur.fetchone()[0]
        cur.execute("SELECT count(DISTINCT user_id) FROM kyc_usernamepart")
        if cur.fetchone()[0] == users:
            print(f"Reusing the name index of {users:,} users.")
            return
        cur.execute("SELECT DISTINCT first_name, last_name, names, surname FROM kyc_platformuser")
        distinct = cur.fetchall()
        print(f"Indexing the names of {users:,} users ({len(distinct):,} distinct sets of name fields):")
        keys, parts = [], []
        for fields in distinct:
            user_keys, user_parts = _index_of(*(value or "" for value in fields))
            keys.extend((*fields, key) for key in user_keys)
            parts.extend((*fields, part) for part in user_parts)
        cur.execute("SET maintenance_work_mem = '512MB'")
        cur.execute("SET synchronous_commit = off")
        cur.execute("TRUNCATE kyc_usernamekey, kyc_usernamepart")
        for table, column, rows in (("kyc_usernamekey", "key", keys), ("kyc_usernamepart", "part", parts)):
            cur.execute(f"CREATE TEMP TABLE bench_{column} (f text, l text, n text, s text, v text)")
            execute_values(cur, f"INSERT INTO bench_{column} VALUES %s", rows, page_size=5000)
            constraints = _drop_constraints(cur, table)
            saved = kyc_users._drop_indexes(cur, [table])
            with kyc_users.step(f"{table} rows"):
                cur.execute(
                    f"INSERT INTO {table} (user_id, {column}) SELECT u.id, b.v FROM kyc_platformuser u "
                    f"JOIN bench_{column} b ON u.first_name = b.f AND u.last_name = b.l "
                    f"AND u.names = b.n AND u.surname = b.s"
                )
            for name, definition in constraints:
                with kyc_users.step(f"constraint {name}"):
                    cur.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
            kyc_users._restore_indexes(cur, saved)
            cur.execute(f"ANALYZE {table}")


def _drop_constraints(cur, table: str) -> list[tuple[str, str]]:
    cur.execute(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s::regclass AND contype = 'u'",
        [table],
    )
    saved = cur.fetchall()
    for name, _ in saved:
        cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    return saved


def snapshot_risk() -> None:
    """Keep each user's original risk, so every run starts from the same users."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("CREATE TABLE IF NOT EXISTS bench_user_risk (id uuid PRIMARY KEY, score smallint, rating text)")
        cur.execute("SELECT count(*) FROM bench_user_risk")
        if cur.fetchone()[0] == 0:
            cur.execute("INSERT INTO bench_user_risk SELECT id, current_risk_score, risk_rating FROM kyc_platformuser")


def reset_peps() -> None:
    """An empty PEP list and users as loaded: what each run starts from."""
    from django.core.cache import cache
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "TRUNCATE compliance_pep, compliance_pepnamekey, compliance_pepmatch, compliance_pepmatchevent, "
            "compliance_screeningrun, compliance_userscreening, compliance_alert, backoffice_auditlog CASCADE"
        )
        cur.execute(
            "UPDATE kyc_platformuser u SET current_risk_score = b.score, risk_rating = b.rating, "
            "is_potential_pep = false FROM bench_user_risk b WHERE u.id = b.id AND u.is_potential_pep"
        )
    cache.clear()


def load_screen_list(count: int) -> None:
    """``count`` PEPs and their name keys, written straight to the tables (no screening: only the list is needed)."""
    from django.db import connection, transaction

    from compliance.peps.models.pep import PEP, PEPNameKey
    from compliance.peps.selectors.pep import pep_person
    from compliance.peps.services.pep import _new
    from kyc.name_index import stored
    from names import blocking_keys

    if PEP.objects.count() == count and PEP.objects.filter(source="bench").count() == count:
        print(f"Reusing {count:,} PEPs.")
        return
    reset_peps()
    names = {"name": "name", "category": "category", "position": "position", "country": "country"}
    bodies = make_peps(count, seed=7)
    with kyc_users.step(f"{count:,} PEPs and their keys"):
        for start in range(0, count, 5000):
            peps = []
            for body in bodies[start : start + 5000]:
                fields = {names[k]: v for k, v in body.items() if k in names}
                fields["date_of_birth"] = body.get("dateOfBirth", "")
                fields["source"] = "bench"
                peps.append(_new(fields))
            with transaction.atomic():
                PEP.objects.bulk_create(peps, batch_size=2000)
                PEPNameKey.objects.bulk_create(
                    [PEPNameKey(pep_id=p.pk, key=k) for p in peps for k in stored(blocking_keys(pep_person(p)))],
                    batch_size=5000,
                )
    with connection.cursor() as cur:
        cur.execute("ANALYZE compliance_pep")
        cur.execute("ANALYZE compliance_pepnamekey")


# ---------------------------------------------------------------- bulk (a child process per run)


def child_bulk(count: int) -> dict:
    """One bulk upload through the API, in this fresh process; prints its figures as JSON."""
    from rest_framework.test import APIClient

    from backoffice.auth import tokens
    from backoffice.models import Staff

    staff, _ = Staff.objects.get_or_create(email="bench@vikela.local", defaults={"role": "admin"})
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Bearer {tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk).access}"
    )
    body = {"peps": make_peps(count, seed=20261123)}
    before = rss_kb()
    started = time.perf_counter()
    response = client.post("/api/v1/admin/aml/pep/bulk", body, format="json")
    seconds = time.perf_counter() - started
    assert response.status_code == 201, response.content[:500]
    data = response.json()["data"]
    return {
        "seconds": seconds,
        "created": data["created"],
        "failed": data["failed"],
        "users_scanned": data["matching"]["usersScanned"],
        "candidates": data["matching"]["candidatesCompared"],
        "users_matched": data["matching"]["usersMatched"],
        "alerts": data["matching"]["alertsCreated"],
        "rss_before_mb": before / 1024,
        "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def exhaustive_rate(sample: float, user_sample: float, peps: int) -> dict:
    """Every pair of a sample of PEPs and users compared with no blocking: pairs per second, and matches."""
    from django.db import connection

    from kyc.name_index import user_person
    from kyc.selectors.name_matching import user_name_frequencies
    from names import Person, compare

    bodies = make_peps(peps, seed=20261123)
    rng = random.Random(5)
    chosen = rng.sample(bodies, max(1, int(len(bodies) * sample)))
    pep_people = [Person(b["name"], date_of_birth=b.get("dateOfBirth"), country=b.get("country")) for b in chosen]
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM kyc_platformuser")
        users = cur.fetchone()[0]
        cur.execute(
            "SELECT first_name, last_name, names, surname, date_of_birth, country FROM kyc_platformuser "
            "TABLESAMPLE BERNOULLI (%s) REPEATABLE (7)",
            [user_sample * 100],
        )
        rows = cur.fetchall()
    user_people = [
        user_person(first_name=first, last_name=last, names=names, surname=sur, date_of_birth=born, country=land)
        for first, last, names, sur, born, land in rows
    ]
    frequencies = user_name_frequencies(fresh=True)
    matches = 0
    started = time.perf_counter()
    for pep in pep_people:
        for user in user_people:
            matches += compare(user, pep, frequencies=frequencies).is_match
    seconds = time.perf_counter() - started
    pairs = len(pep_people) * len(user_people)
    return {
        "pairs": pairs,
        "seconds": seconds,
        "rate": pairs / seconds,
        "matches": matches,
        "extrapolated_seconds": peps * users / (pairs / seconds),
    }


# ---------------------------------------------------------------- screen (through a gunicorn worker)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def screen_queries(count: int, listed_count: int) -> list[dict]:
    """Names to screen: PEP names as listed, PEP names surname-first, local names, and names of nobody."""
    rng = random.Random(11)
    listed = make_peps(listed_count, seed=7)
    queries = []
    for n in range(count):
        kind = n % 4
        if kind == 0:
            body = rng.choice(listed)
            queries.append({"name": body["name"], "dateOfBirth": body.get("dateOfBirth") or ""})
        elif kind == 1:
            parts = rng.choice(listed)["name"].split()
            queries.append({"name": f"{parts[-1].upper()}, {' '.join(parts[:-1])}"})
        elif kind == 2:
            queries.append({"name": f"{rng.choice(kyc_users.FIRST_NAMES)} {rng.choice(kyc_users.LAST_NAMES)}"})
        else:
            queries.append({"name": f"{word(rng, 2)} {word(rng, 3)}"})
    return queries


def measure_screen(url: str, runs: int, listed_count: int) -> dict:
    from backoffice.auth import tokens
    from backoffice.models import Staff

    staff, _ = Staff.objects.get_or_create(email="bench@vikela.local", defaults={"role": "admin"})
    token = tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk).access
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "RATE_LIMIT_STANDARD": "100000000/m",
        "ENVIRONMENT": "test",
        "GUNICORN_THREADS": "1",
    }
    server = subprocess.Popen(
        [str(ROOT / "scripts" / "serve"), "127.0.0.1", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}/api/v1"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/health", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
        worker = next(
            int(pid)
            for pid in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
            if pid.strip()
        )

        def screen(query) -> tuple[float, int]:
            request = urllib.request.Request(
                f"{base}/admin/aml/pep/screen",
                data=json.dumps(query).encode(),
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            started = time.perf_counter()
            with urllib.request.urlopen(request, timeout=60) as response:
                answer = json.loads(response.read())
            return (time.perf_counter() - started) * 1000, answer["count"]

        rss_before = rss_kb(worker)
        queries = screen_queries(SCREEN_QUERIES, listed_count)
        for query in queries[:20]:  # warm: the matcher's caches, the plans
            screen(query)
        p50s, p95s, hits = [], [], []
        for _ in range(runs):
            samples = [screen(q) for q in queries]
            p50s.append(percentile([ms for ms, _ in samples], 0.5))
            p95s.append(percentile([ms for ms, _ in samples], 0.95))
            hits.append(sum(1 for _, n in samples if n))
        rss_after = rss_kb(worker)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return {
        "p50": median(p50s),
        "p95": median(p95s),
        "queries_with_hits": median(hits),
        "rss_before_mb": rss_before / 1024,
        "rss_after_mb": rss_after / 1024,
    }


def screen_baseline(queries: int, listed_count: int) -> float:
    """Milliseconds per query comparing the query with every active PEP (no blocking), in process."""
    from compliance.peps.models.pep import PEP
    from compliance.peps.selectors.pep import pep_person
    from kyc.selectors.name_matching import user_name_frequencies
    from names import Person, compare

    frequencies = user_name_frequencies(fresh=True)
    people = [
        pep_person(p) for p in PEP.objects.filter(is_active=True).only("name", "aliases", "date_of_birth", "country")
    ]
    samples = []
    for query in screen_queries(queries, listed_count):
        person = Person(query["name"], date_of_birth=query.get("dateOfBirth") or None)
        started = time.perf_counter()
        for pep in people:
            compare(person, pep, frequencies=frequencies)
        samples.append((time.perf_counter() - started) * 1000)
    return median(samples)


# ---------------------------------------------------------------- main


def others_running() -> str:
    """What else used the CPU while we ran (this machine is shared): the load average and the busiest processes."""
    load = os.getloadavg()
    top = subprocess.run(
        ["ps", "-eo", "pcpu,comm", "--sort=-pcpu", "--no-headers"], capture_output=True, text=True
    ).stdout.splitlines()[:5]
    return f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; busiest: " + "; ".join(
        " ".join(line.split()) for line in top
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--peps", type=int, default=BULK_PEPS, help="PEPs per bulk upload")
    parser.add_argument("--screen-peps", type=int, default=SCREEN_PEPS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sample", type=float, default=0.01, help="share of the PEPs for the baseline")
    parser.add_argument("--user-sample", type=float, default=0.001, help="share of the users for the baseline")
    parser.add_argument("--skip", choices=["bulk", "screen"], action="append", default=[])
    parser.add_argument("--database", default="bench_peps")
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    )
    parser.add_argument("--child", choices=["bulk"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ["RATE_LIMIT_BULK"] = "100000/m"

    url = kyc_users.ensure_database(args.server, args.database)
    if args.child:
        kyc_users.setup_django(url)
        print(json.dumps(child_bulk(args.peps)))
        return
    kyc_users.setup_django(url)
    kyc_users.load(args.users, 0)
    index_user_names()
    snapshot_risk()
    print(f"While measuring: {others_running()}")

    if "bulk" not in args.skip:
        runs = []
        for run in range(args.runs):
            reset_peps()
            child = subprocess.run(
                [sys.executable, __file__, "--child", "bulk", "--peps", str(args.peps), "--database", args.database,
                 "--server", args.server],
                capture_output=True,
                text=True,
            )  # fmt: skip
            if child.returncode != 0:
                raise SystemExit(child.stderr[-3000:])
            runs.append(json.loads(child.stdout.strip().splitlines()[-1]))
            print(f"  bulk run {run + 1}: {runs[-1]['seconds']:.1f} s, {runs[-1]['users_matched']:,} users matched")
        base = exhaustive_rate(args.sample, args.user_sample, args.peps)
        seconds = median([r["seconds"] for r in runs])
        print(f"\nBulk upload: {args.peps:,} PEPs against {runs[0]['users_scanned']:,} users (median of {args.runs})")
        print(f"  total                  {seconds:10.1f} s   ({args.peps / seconds:,.0f} PEPs/s)")
        print(f"  candidate pairs        {median([r['candidates'] for r in runs]):12,.0f}")
        print(f"  users matched, alerts  {median([r['users_matched'] for r in runs]):12,.0f} "
              f"{median([r['alerts'] for r in runs]):8,.0f}")  # fmt: skip
        print(f"  process RSS            {median([r['rss_before_mb'] for r in runs]):10.0f} MB before, "
              f"{median([r['rss_peak_mb'] for r in runs]):.0f} MB peak")  # fmt: skip
        print(f"  exhaustive baseline    {base['pairs']:,} pairs in {base['seconds']:.1f} s "
              f"({base['rate']:,.0f} pairs/s, {base['matches']} matches); "
              f"all pairs: {base['extrapolated_seconds']:,.0f} s")  # fmt: skip
        print(f"  speed-up               {base['extrapolated_seconds'] / seconds:10,.0f}x")
        print("  targets: under 300 s and >= 100x")
        reset_peps()

    if "screen" not in args.skip:
        load_screen_list(args.screen_peps)
        result = measure_screen(url, args.runs, args.screen_peps)
        baseline = screen_baseline(5, args.screen_peps)
        print(
            f"\nAd-hoc screen: {SCREEN_QUERIES} queries against {args.screen_peps:,} PEPs through one gunicorn worker"
        )
        print(f"  p50 / p95              {result['p50']:8.1f} / {result['p95']:.1f} ms (median of {args.runs} runs)")
        print(f"  queries with a match   {result['queries_with_hits']:8.0f} of {SCREEN_QUERIES}")
        print(f"  worker RSS             {result['rss_before_mb']:8.0f} MB before the first screen, "
              f"{result['rss_after_mb']:.0f} MB with the matcher loaded and warm")  # fmt: skip
        print(f"  exhaustive baseline    {baseline:8.0f} ms per query (every active PEP compared)")
        print(f"  speed-up at p95        {baseline / result['p95']:8.0f}x")
        print("  target: p95 under 100 ms")
    print(f"\nAfterwards: {others_running()}")


if __name__ == "__main__":
    main()
