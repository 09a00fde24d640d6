"""Benchmark of sanctions lists and screening on PostgreSQL, each figure against a baseline in the same run.

In a database of its own (default ``bench_sanctions``):

* **import**: the product's UN and OFAC files (``compliance/sanctions/data``) imported as new lists (the service
  the command and the API call), median seconds; the re-screening an import starts is measured on its own below.
* **screen**: one name against UN + OFAC through the process's name index (``selectors.screening.screen_name``:
  the index search and the entries' one query), p50/p95 over queries that are variations of listed names
  (typos, order, a dropped middle name) and local names. Baseline: the same queries compared with every
  entry name by the matcher (``names.compare``), exhaustively. The screening's CPU time is printed beside its
  wall time: on a machine shared with other work the difference is the wait for a CPU.
* **screen 1M**: ``--entries`` generated FollowTheMoney-like entries (persons and companies, aliases, dates of
  birth, nationalities) in a ``NameIndex``: p50/p95 and the index's memory (its arrays, and the process's RSS
  growth while building). Baseline: exhaustive comparison timed on a sample and extrapolated.
* **decision**: the decision before the money moves (``transaction_dry_run``, service level, the whole rule
  catalogue active), ``--decisions`` calls without and with a ``counterpartyName``, in turns: the added p95.
* **re-screen**: ``--users`` customers (``bench/kyc_users.py``'s loader) screened after a delta of ``--delta``
  entries (``services.screening.screen_delta``, inline). Baseline: exhaustive pairs timed on a sample.
* **PEP screening**: ``--peps`` generated PEPs (``bench/pep_screening.py``'s generator) in the same index,
  p50/p95 per query of the index's search and of the product's path (``compliance.peps``: the index's
  candidates, each compared by the matcher; the summary's figure), against the exhaustive comparison.

    .venv/bin/python bench/sanctions.py                  # 1,000,000 entries, 1,000,000 users, 100,000 PEPs
    .venv/bin/python bench/sanctions.py --entries 100000 --users 100000 --runs 1
    .venv/bin/python bench/sanctions.py --users 20000 --skip generated --skip rescreen   # quick: a few minutes

It ends with one line: ``sanctions screen_p95_ms=.. screen_1m_p95_ms=.. decision_added_p95_ms=.. rescreen_1m_s=..
pep_screen_p95_ms=..`` (``rescreen_1m_s`` is the re-screen of ``--users`` customers, scaled to a million when
fewer were loaded, and says so above).
"""

import argparse
import os
import random
import resource
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import kyc_users  # noqa: E402  (the user loader)
import pep_screening  # noqa: E402  (the PEP generator)

DATA = ROOT / "compliance" / "sanctions" / "data"
QUERIES = 200
TYPO = "abcdefghijklmnopqrstuvwxyz"
COUNTRIES = ["RU", "IR", "KP", "SY", "AF", "IQ", "SO", "YE", "LY", "SD", "VE", "CU", "BY", "MM", "CN", "AE", "TR"]


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values, q):
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, (time.perf_counter() - started) * 1000


def timed_cpu(fn, *args, **kwargs):
    """(result, wall ms, this thread's CPU ms): on a machine shared with other work the CPU time is what the
    screening itself costs, the wall time adds the waits for a CPU."""
    started, cpu = time.perf_counter(), time.thread_time()
    result = fn(*args, **kwargs)
    return result, (time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000


def vary(name: str, rng: random.Random) -> str:
    """A listed name as a clerk might type it: a typo, another order, a dropped middle name, other case."""
    parts = name.split()
    roll = rng.random()
    if roll < 0.3 and parts:
        i = rng.randrange(len(parts))
        word = parts[i]
        if len(word) > 3:
            j = rng.randrange(1, len(word) - 1)
            parts[i] = word[:j] + rng.choice(TYPO) + word[j + 1 :]
    elif roll < 0.55 and len(parts) > 1:
        parts = parts[1:] + parts[:1]
    elif roll < 0.8 and len(parts) > 2:
        parts = parts[:1] + parts[2:]
    text = " ".join(parts)
    return text.upper() if rng.random() < 0.3 else text.lower()


# ---------------------------------------------------------------- import


def clear_lists() -> None:
    from django.db import connection

    from compliance.sanctions.models import SanctionsMatch

    SanctionsMatch.objects.all().delete()
    with connection.cursor() as cur:
        cur.execute(
            "TRUNCATE compliance_sanctionsentrychange, compliance_sanctionsimport, compliance_sanctionsentry, "
            "compliance_listversion, compliance_sanctionslist CASCADE"
        )


def import_lists() -> float:
    from compliance.sanctions import hooks
    from compliance.sanctions.services.imports import SourceFile, sanctions_import
    from compliance.sanctions.services.screening import on_entries_changed

    def source(name):
        path = DATA / name
        return SourceFile(name=path.name, data=path.read_bytes())

    # the import alone: the re-screening it starts is measured below, against a customer base of its own size
    hooks.entries_changed._functions = [f for f in hooks.entries_changed._functions if f is not on_entries_changed]
    clear_lists()
    started = time.perf_counter()
    un = next(p.name for p in DATA.glob("un-*.xml"))
    sanctions_import(list_code="UN", file=source(un), actor=None)
    sanctions_import(
        list_code="OFAC",
        file=source("ofac-2019-sdn.csv"),
        alt=source("ofac-2019-alt.csv"),
        add=source("ofac-2019-add.csv"),
        actor=None,
    )
    seconds = time.perf_counter() - started
    hooks.entries_changed.register(on_entries_changed)
    return seconds


# ---------------------------------------------------------------- screening against the real lists


def real_queries(rng: random.Random) -> list[str]:
    from compliance.sanctions.models import SanctionsEntry

    names = list(SanctionsEntry.objects.filter(removed_at__isnull=True).values_list("name", flat=True))
    listed = [vary(rng.choice(names), rng) for _ in range(QUERIES // 2)]
    local = [f"{rng.choice(kyc_users.FIRST_NAMES)} {rng.choice(kyc_users.LAST_NAMES)}" for _ in range(QUERIES // 2)]
    queries = listed + local
    rng.shuffle(queries)
    return queries


def measure_real(queries: list[str]) -> dict:
    from compliance.sanctions.selectors.screening import sanctions_index, sanctions_index_reset, screen_name

    sanctions_index_reset()
    _, build_ms = timed(sanctions_index)
    screen_name(queries[0])  # warm
    times, cpu, hits = [], [], 0
    for query in queries:
        found, ms, cpu_ms = timed_cpu(screen_name, query)
        times.append(ms)
        cpu.append(cpu_ms)
        hits += bool(found)
    return {
        "p50": pct(times, 50),
        "p95": pct(times, 95),
        "cpu_p50": pct(cpu, 50),
        "cpu_p95": pct(cpu, 95),
        "build_ms": build_ms,
        "hits": hits,
    }


def exhaustive_real(queries: list[str], sample: int) -> float:
    """ms per query comparing with every entry name (primary and aliases), on ``sample`` queries."""
    from compliance.sanctions.selectors.screening import entry_records
    from names import Person, compare

    people = [Person(record.names[0], tuple(record.names[1:])) for record in entry_records()]
    started = time.perf_counter()
    for query in queries[:sample]:
        asked = Person(query)
        for person in people:
            compare(asked, person, threshold=0.8)
    return (time.perf_counter() - started) * 1000 / sample


# ---------------------------------------------------------------- a million generated entries


def generated_records(count: int, seed: int):
    from names.index import IndexRecord

    rng = random.Random(seed)
    for n in range(count):
        if rng.random() < 0.75:
            names = [f"{pep_screening.word(rng, rng.randint(1, 3))} {pep_screening.word(rng, rng.randint(2, 4))}"]
            if rng.random() < 0.3:
                names.append(f"{pep_screening.word(rng, 2)} {names[0].split()[-1]}")
            dates = (
                (f"{rng.randint(1940, 2000)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",)
                if rng.random() < 0.7
                else ()
            )
            yield IndexRecord(n, tuple(names), dates, (rng.choice(COUNTRIES),), "person")
        else:
            words = [pep_screening.word(rng, rng.randint(2, 3)) for _ in range(rng.randint(1, 3))]
            names = [" ".join(words) + rng.choice([" LLC", " Ltd", " Trading Co", " Holdings", ""])]
            yield IndexRecord(n, tuple(names), (), (rng.choice(COUNTRIES),), "entity")


def measure_generated(count: int, seed: int) -> dict:
    import gc

    from names import Person, compare
    from names.index import NameIndex

    gc.collect()
    before = rss_mb()
    records = list(generated_records(count, seed))
    index, build_ms = timed(NameIndex.build, records)
    after = rss_mb()
    rng = random.Random(seed + 1)
    queries = [vary(rng.choice(records).names[0], rng) for _ in range(QUERIES // 2)]
    queries += [f"{rng.choice(kyc_users.FIRST_NAMES)} {rng.choice(kyc_users.LAST_NAMES)}" for _ in range(QUERIES // 2)]
    index.search(queries[0], threshold=0.8)
    times, hits = [], 0
    for query in queries:
        found, ms = timed(index.search, query, threshold=0.8)
        times.append(ms)
        hits += bool(found)
    sample = records[: min(20_000, count)]
    people = [Person(r.names[0], tuple(r.names[1:])) for r in sample]
    started = time.perf_counter()
    for query in queries[:2]:
        asked = Person(query)
        for person in people:
            compare(asked, person, threshold=0.8)
    per_pair = (time.perf_counter() - started) / (2 * len(people))
    nbytes = getattr(index, "nbytes", 0)
    return {
        "p50": pct(times, 50),
        "p95": pct(times, 95),
        "hits": hits,
        "build_s": build_ms / 1000,
        "index_mb": nbytes / 1e6,
        "rss_growth_mb": after - before,
        "baseline_ms": per_pair * count * 1000,
    }


# ---------------------------------------------------------------- the decision


def measure_decision(count: int, seed: int) -> dict:
    from compliance.aml.models.rules import AMLRule
    from compliance.aml.services.catalogue import rule_catalogue_load
    from compliance.sanctions.models import SanctionsEntry
    from kyc.models import PlatformUser
    from kyc.services.ledger import transaction_dry_run

    rule_catalogue_load()
    AMLRule.objects.update(is_active=True)
    rng = random.Random(seed)
    user_ids = list(PlatformUser.objects.filter(is_archived=False).order_by("?").values_list("pk", flat=True)[:200])
    listed = list(SanctionsEntry.objects.filter(removed_at__isnull=True).values_list("name", flat=True)[:2000])

    def body(name):
        return {
            "user_id": rng.choice(user_ids),
            "type": "TRANSFER_OUT",
            "amount": Decimal(rng.randint(10, 5000)),
            "counterparty_name": name,
        }

    names = [
        vary(rng.choice(listed), rng)
        if rng.random() < 0.1
        else f"{rng.choice(kyc_users.FIRST_NAMES)} {rng.choice(kyc_users.LAST_NAMES)}"
        for _ in range(count)
    ]
    for _ in range(20):
        transaction_dry_run(**body(""))
    # one call without a name, one with, in turns: a machine whose load drifts slows both alike
    without, with_name = [], []
    for name in names:
        without.append(timed(transaction_dry_run, **body(""))[1])
        with_name.append(timed(transaction_dry_run, **body(name))[1])
    return {
        "without_p50": pct(without, 50),
        "without_p95": pct(without, 95),
        "with_p50": pct(with_name, 50),
        "with_p95": pct(with_name, 95),
        "rules": AMLRule.objects.filter(is_active=True).count(),
    }


# ---------------------------------------------------------------- re-screening after a delta


def measure_rescreen(delta: int, seed: int) -> dict:
    from django.conf import settings

    from compliance.sanctions.models import SanctionsEntry, SanctionsMatch
    from compliance.sanctions.services.screening import screen_delta
    from kyc.models import PlatformUser
    from names import Person, compare

    SanctionsMatch.objects.all().delete()
    ids = list(SanctionsEntry.objects.filter(removed_at__isnull=True).order_by("pk").values_list("pk", flat=True))
    rng = random.Random(seed)
    chosen = rng.sample(ids, min(delta, len(ids)))
    users = PlatformUser.objects.count()
    settings.SANCTIONS_SCREENING_CHUNK = 20_000
    counts, ms = timed(screen_delta, changed=chosen, background=False)
    entries = list(SanctionsEntry.objects.filter(pk__in=chosen).values_list("name", flat=True))
    people = [Person(name) for name in entries]
    sample = list(PlatformUser.objects.values_list("first_name", "last_name")[:20])
    started = time.perf_counter()
    for first, last in sample:
        asked = Person(f"{first} {last}")
        for person in people:
            compare(asked, person, threshold=0.8)
    per_user = (time.perf_counter() - started) / len(sample)
    return {
        "seconds": ms / 1000,
        "users": users,
        "matches": counts.matches_created,
        "baseline_s": per_user * users,
    }


# ---------------------------------------------------------------- PEPs through the index


def measure_peps(count: int, seed: int) -> dict:
    from names import Person, compare
    from names.index import IndexRecord, NameIndex

    peps = pep_screening.make_peps(count, seed)
    records = [
        IndexRecord(n, (p["name"],), (p["dateOfBirth"],) if p.get("dateOfBirth") else (), (), "person")
        for n, p in enumerate(peps)
    ]
    index, build_ms = timed(NameIndex.build, records)
    rng = random.Random(seed + 7)
    queries = [vary(rng.choice(peps)["name"], rng) for _ in range(QUERIES // 2)]
    queries += [f"{rng.choice(kyc_users.FIRST_NAMES)} {rng.choice(kyc_users.LAST_NAMES)}" for _ in range(QUERIES // 2)]
    index.search(queries[0], threshold=0.8)
    times = [timed(index.search, q, threshold=0.8)[1] for q in queries]
    # the product's path (compliance.peps.selectors.pep.peps_matching): the index proposes candidates, each is
    # compared with the matcher (the rows read from memory here, not from the database)
    persons = {n: Person(p["name"]) for n, p in enumerate(peps)}

    def screen(query):
        asked = Person(query)
        keys = index.candidates(asked.names, threshold=0.8)
        return [key for key in keys if compare(asked, persons[key], threshold=0.8).is_match]

    product = [timed(screen, q)[1] for q in queries]
    people = [Person(p["name"]) for p in peps[:10_000]]
    started = time.perf_counter()
    asked = Person(queries[0])
    for person in people:
        compare(asked, person, threshold=0.8)
    baseline_ms = (time.perf_counter() - started) * 1000 * count / len(people)
    return {
        "p50": pct(times, 50),
        "p95": pct(times, 95),
        "product_p50": pct(product, 50),
        "product_p95": pct(product, 95),
        "build_s": build_ms / 1000,
        "baseline_ms": baseline_ms,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=1_000_000, help="generated FtM-like entries")
    parser.add_argument("--users", type=int, default=1_000_000, help="customers re-screened after a delta")
    parser.add_argument("--delta", type=int, default=1000)
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--peps", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--database", default="bench_sanctions")
    parser.add_argument(
        "--skip",
        choices=["import", "screen", "generated", "decision", "rescreen", "peps"],
        action="append",
        default=[],
        help="leave a part out (import: keep the lists an earlier run imported)",
    )
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    )
    args = parser.parse_args()
    os.environ.setdefault("AML_ALERTS_BACKGROUND", "false")
    os.environ.setdefault("SANCTIONS_SCREEN_INLINE_MAX", "100000000")

    url = kyc_users.ensure_database(args.server, args.database)
    kyc_users.setup_django(url)
    kyc_users.load(args.users, 0)

    from compliance.sanctions.models import SanctionsEntry

    real_p95 = generated_p95 = added = scaled = peps_p95 = float("nan")
    if "import" not in args.skip or not SanctionsEntry.objects.exists():
        imports = [import_lists() for _ in range(args.runs)]
        entries = SanctionsEntry.objects.filter(removed_at__isnull=True).count()
        seconds = statistics.median(imports)
        print(f"\nImport of UN + OFAC ({entries:,} active entries): {seconds:.1f} s (median of {args.runs})")
    if "screen" not in args.skip:
        real_p95 = screen_real(args)
    if "generated" not in args.skip:
        generated_p95 = screen_generated(args)
    if "decision" not in args.skip:
        added = decision_added(args)
    if "rescreen" not in args.skip:
        scaled = rescreen(args)
    if "peps" not in args.skip:
        peps_p95 = pep_screen(args)
    print(
        f"sanctions screen_p95_ms={real_p95:.2f} screen_1m_p95_ms={generated_p95:.2f} "
        f"decision_added_p95_ms={added:.2f} rescreen_1m_s={scaled:.0f} pep_screen_p95_ms={peps_p95:.2f}"
    )


def screen_real(args) -> float:
    rng = random.Random(args.seed)
    queries = real_queries(rng)
    real = [measure_real(queries) for _ in range(args.runs)]
    real_p95 = statistics.median(r["p95"] for r in real)
    baseline = exhaustive_real(queries, 5)
    print(f"Screen one name against UN + OFAC ({QUERIES} queries, half listed names varied, half local names)")
    real_p50, built = statistics.median(r["p50"] for r in real), statistics.median(r["build_ms"] for r in real)
    print(f"  p50 / p95              {real_p50:7.2f} / {real_p95:.2f} ms "
          f"(index built in {built:,.0f} ms; {real[0]['hits']} queries hit)")  # fmt: skip
    cpu_p50, cpu_p95 = statistics.median(r["cpu_p50"] for r in real), statistics.median(r["cpu_p95"] for r in real)
    print(f"  CPU p50 / p95          {cpu_p50:7.2f} / {cpu_p95:.2f} ms (this thread's CPU time: without the waits "
          f"for a CPU a loaded machine adds; load average {os.getloadavg()[0]:.1f})")  # fmt: skip
    print(f"  exhaustive baseline    {baseline:7.1f} ms per query; speed-up at p95 {baseline / real_p95:,.0f}x")
    print("  target: p95 under 5 ms")
    return real_p95


def screen_generated(args) -> float:
    generated = measure_generated(args.entries, args.seed)
    print(f"Screen one name against {args.entries:,} generated FtM-like entries")
    print(f"  p50 / p95              {generated['p50']:7.2f} / {generated['p95']:.2f} ms "
          f"({generated['hits']} queries hit)")  # fmt: skip
    print(f"  index                  {generated['index_mb']:7.0f} MB of arrays; process RSS grew "
          f"{generated['rss_growth_mb']:,.0f} MB; built in {generated['build_s']:.0f} s")  # fmt: skip
    print(f"  exhaustive baseline    {generated['baseline_ms']:7,.0f} ms per query (from 20,000 entries); "
          f"speed-up at p95 {generated['baseline_ms'] / generated['p95']:,.0f}x")  # fmt: skip
    print("  target: p95 under 25 ms, index under 1 GB")
    return generated["p95"]


def decision_added(args) -> float:
    decision = measure_decision(args.decisions, args.seed)
    added = max(0.0, decision["with_p95"] - decision["without_p95"])
    print(f"Decision (service level, dry run, {decision['rules']} rules active, {args.decisions:,} calls each)")
    print(f"  without a counterparty {decision['without_p50']:7.2f} / {decision['without_p95']:.2f} ms p50 / p95")
    print(f"  with a counterparty    {decision['with_p50']:7.2f} / {decision['with_p95']:.2f} ms p50 / p95")
    print(f"  added at p95           {added:7.2f} ms (target under 5 ms)")
    return added


def rescreen(args) -> float:
    rescreen = measure_rescreen(args.delta, args.seed)
    scaled = rescreen["seconds"] * 1_000_000 / max(1, rescreen["users"])
    print(f"Re-screen {rescreen['users']:,} customers after a delta of {args.delta:,} entries")
    print(f"  total                  {rescreen['seconds']:7.1f} s ({rescreen['matches']} matches)"
          + (f"; scaled to 1,000,000 customers: {scaled:.0f} s" if rescreen["users"] != 1_000_000 else ""))  # fmt: skip
    print(f"  exhaustive baseline    {rescreen['baseline_s']:7,.0f} s (extrapolated); "
          f"speed-up {rescreen['baseline_s'] / rescreen['seconds']:,.0f}x")  # fmt: skip
    print("  target: under 180 s for 1,000,000 customers")
    return scaled


def pep_screen(args) -> float:
    peps = measure_peps(args.peps, args.seed)
    print(f"PEP screening against {args.peps:,} generated PEPs through the same index")
    print(f"  index search p50 / p95 {peps['p50']:7.2f} / {peps['p95']:.2f} ms "
          f"(index built in {peps['build_s']:.0f} s)")  # fmt: skip
    print(f"  product path p50 / p95 {peps['product_p50']:7.2f} / {peps['product_p95']:.2f} ms "
          "(the index's candidates, each compared by the matcher, as compliance.peps screens)")  # fmt: skip
    print(f"  exhaustive baseline    {peps['baseline_ms']:7,.0f} ms per query; "
          f"speed-up at p95 {peps['baseline_ms'] / peps['product_p95']:,.0f}x")  # fmt: skip
    print("  target: p95 under 25 ms (the product path's is the summary's figure)")
    return peps["product_p95"]


if __name__ == "__main__":
    main()
