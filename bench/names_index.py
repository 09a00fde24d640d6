"""Benchmark of the in-memory name index (names/index.py) against the exhaustive matcher, in one run.

    .venv/bin/python bench/names_index.py                          # 20k names, 1M entries, 100k PEPs
    .venv/bin/python bench/names_index.py --sizes 20000 --peps 0   # the sanctions-sized list only

For each list it builds a NameIndex from generated, deterministic records (names from bench/names/pools.py's
regions, invented names beside them, aliases, dates of birth, countries), then screens queries that are
variations of listed names (order, a dropped part, a slip, an initial) and names of people not listed, and
prints, each a median of ``--runs`` runs:

* the index's build time, its own arrays' size and the process's resident memory growth over the build
  (the index with its names, normalised forms and the matcher's caches; not the records, which the caller
  holds anyway);
* search p50 / p95 in milliseconds;
* the baseline: the same matcher comparing the query with every record (``exhaustive_search``), p50 / p95,
  timed on ``--baseline-queries`` queries against at most ``--baseline-records`` records and scaled linearly
  to the whole list when it is larger (stated as such);
* the recall of the index against the exhaustive matcher on those queries: of the records the exhaustive
  search returns, the share the index returns too.

The sanctions bench (``make bench-sanctions``) calls ``generated_records``, ``generated_queries``,
``bench_list`` and ``exhaustive_search`` with its own lists. The last line is
``names_index screen_20k_p95_ms=<n> screen_1m_p95_ms=<n> index_1m_mb=<n> pep_100k_p95_ms=<n>``.
"""

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.names.pools import REGIONS, family, given  # noqa: E402
from names import Person, compare  # noqa: E402
from names.index import IndexRecord, NameIndex  # noqa: E402

THRESHOLD = 0.8
_SYLLABLES = "ka lo mi ra shi ndo be tu vi zo qa nje phu tse ga ni so ma le ku ho di wa yo fe".split()
_COUNTRIES = ["SZ", "ZA", "MZ", "GB", "US", "SA", "RU", "CN", "MX", "BR", "IN", "IR", "SY", "KP", "UA"]


def _invented(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()


def _person_name(rng: random.Random) -> str:
    """A real-looking name: given names and a family name of one region, or (a third) invented parts."""
    if rng.random() < 0.33:
        return " ".join(_invented(rng) for _ in range(rng.choice((2, 2, 3))))
    region = rng.choice(list(REGIONS))
    parts = [rng.choice(given(region))]
    if rng.random() < 0.4:
        parts.append(rng.choice(given(region)) if rng.random() < 0.5 else _invented(rng))
    parts.append(rng.choice(family(region)))
    return " ".join(parts)


def generated_records(count: int, *, seed: int = 1, aliases_per_record: float = 1.4) -> list[IndexRecord]:
    """``count`` deterministic records: a person's name (a tenth are entities), aliases, dates, countries."""
    rng = random.Random(seed)
    records = []
    for number in range(count):
        entity = rng.random() < 0.1
        if entity:
            name = f"{_invented(rng)} {rng.choice(('Trading', 'Holdings', 'Shipping', 'Group', 'Front'))}"
        else:
            name = _person_name(rng)
        names = [name]
        for _ in range(int(aliases_per_record) + (rng.random() < aliases_per_record % 1)):
            names.append(_variation(name, rng) if rng.random() < 0.5 else _person_name(rng))
        dates = ()
        if not entity and rng.random() < 0.7:
            year = rng.randint(1940, 2000)
            dates = (rng.choice((f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", str(year),
                                 f"{year}/{year + 2}")),)  # fmt: skip
        countries = (rng.choice(_COUNTRIES),) if rng.random() < 0.8 else ()
        records.append(IndexRecord(number, tuple(names), dates, countries, "entity" if entity else "person"))
    return records


def _slip(part: str, rng: random.Random) -> str:
    if len(part) < 5:
        return part
    i = rng.randrange(1, len(part) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return part[:i] + part[i + 1 :]
    if kind == 1:
        return part[:i] + part[i + 1] + part[i] + part[i + 2 :]
    return part[:i] + rng.choice("aeiou") + part[i + 1 :]


def _variation(name: str, rng: random.Random) -> str:
    """The same name written another way: order, a dropped middle part, a slip, an initial."""
    parts = name.split()
    how = rng.randrange(4)
    if how == 0 and len(parts) > 1:
        parts = [parts[-1] + ","] + parts[:-1]
    elif how == 1 and len(parts) > 2:
        del parts[1]
    elif how == 2:
        position = rng.randrange(len(parts))
        parts[position] = _slip(parts[position], rng)
    elif len(parts) > 1:
        parts[0] = parts[0][0] + "."
    return " ".join(parts)


def generated_queries(records: Sequence[IndexRecord], count: int, *, seed: int = 2) -> list[str]:
    """Half variations of listed names, half names of people not listed (the everyday screen)."""
    rng = random.Random(seed)
    queries = []
    for number in range(count):
        if number % 2 == 0:
            queries.append(_variation(rng.choice(rng.choice(records).names), rng))
        else:
            queries.append(_person_name(rng))
    return queries


def exhaustive_search(records: Sequence[IndexRecord], name: str, *, threshold: float = THRESHOLD) -> set:
    """The baseline: the query compared with every record by the full matcher; the keys at the threshold."""
    query = Person(name)
    return {
        record.key
        for record in records
        if compare(query, Person(record.names[0], aliases=record.names[1:]), threshold=threshold).score >= threshold
    }


def _rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4096 / 2**20


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def bench_list(
    records: Sequence[IndexRecord],
    queries: Sequence[str],
    *,
    runs: int = 3,
    baseline_queries: int = 10,
    baseline_records: int = 20_000,
    threshold: float = THRESHOLD,
    label: str = "",
) -> dict:
    """Build the index over ``records`` and time ``queries``: medians of ``runs`` runs, and the baseline."""
    gc.collect()
    before = _rss_mb()
    started = time.perf_counter()
    index = NameIndex.build(records)
    build_s = time.perf_counter() - started
    gc.collect()
    grown = _rss_mb() - before
    # wall time, and the process's CPU time beside it: on a shared machine the first includes waiting for a core
    p50s, p95s, cpu50s, cpu95s = [], [], [], []
    for _ in range(runs):
        times, cpu = [], []
        for query in queries:
            started, started_cpu = time.perf_counter(), time.process_time()
            index.search(query, threshold=threshold)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        p50s.append(_percentile(times, 0.5))
        p95s.append(_percentile(times, 0.95))
        cpu50s.append(_percentile(cpu, 0.5))
        cpu95s.append(_percentile(cpu, 0.95))
    sample = list(records[:baseline_records])
    scale = len(records) / len(sample)
    base_times, wanted, found = [], 0, 0
    for query in queries[:baseline_queries]:
        started = time.perf_counter()
        exhaustive = exhaustive_search(sample, query, threshold=threshold)
        base_times.append((time.perf_counter() - started) * 1000 * scale)
        hits = {hit.key for hit in index.search(query, threshold=threshold, limit=1000)}
        wanted += len(exhaustive)
        found += len(exhaustive & hits)
    result = {
        "label": label,
        "records": len(records),
        "names": sum(len(record.names) for record in records),
        "build_s": build_s,
        "index_mb": index.nbytes / 2**20,
        "rss_growth_mb": grown,
        "p50_ms": statistics.median(p50s),
        "p95_ms": statistics.median(p95s),
        "cpu_p50_ms": statistics.median(cpu50s),
        "cpu_p95_ms": statistics.median(cpu95s),
        "baseline_p50_ms": _percentile(base_times, 0.5),
        "baseline_p95_ms": _percentile(base_times, 0.95),
        "baseline_scaled": scale > 1,
        "recall_vs_exhaustive": found / wanted if wanted else 1.0,
        "exhaustive_hits": wanted,
    }
    del index
    gc.collect()
    return result


def _print(result: dict) -> None:
    scaled = " (timed on a slice of the list, scaled to its length)" if result["baseline_scaled"] else ""
    print(
        f"{result['label']}: {result['records']:,} records, {result['names']:,} names; "
        f"build {result['build_s']:.1f} s, "
        f"index arrays {result['index_mb']:.0f} MB, RSS growth over the build {result['rss_growth_mb']:.0f} MB\n"
        f"  index      p50 {result['p50_ms']:.2f} ms  p95 {result['p95_ms']:.2f} ms  "
        f"(CPU time p50 {result['cpu_p50_ms']:.2f} ms  p95 {result['cpu_p95_ms']:.2f} ms)\n"
        f"  exhaustive p50 {result['baseline_p50_ms']:.0f} ms  p95 {result['baseline_p95_ms']:.0f} ms{scaled}\n"
        f"  p95 ratio exhaustive/index {result['baseline_p95_ms'] / max(result['p95_ms'], 1e-9):.0f}x; recall "
        f"against the exhaustive matcher {result['recall_vs_exhaustive']:.3f} ({result['exhaustive_hits']} hits)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8400,1000000", help="entries per list (8,400 entries: ~20k names)")
    parser.add_argument("--peps", type=int, default=100_000, help="PEP-like records (0: skip)")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline-queries", type=int, default=10)
    args = parser.parse_args(argv)
    figures: dict[str, float] = {}
    lists = [(int(size), "list") for size in args.sizes.split(",") if size] + (
        [(args.peps, "peps")] if args.peps else []
    )
    for size, kind in lists:
        # PEPs: one or two aliases less than sanctions entries, as PEP lists have
        records = generated_records(size, seed=size, aliases_per_record=0.6 if kind == "peps" else 1.4)
        queries = generated_queries(records, args.queries, seed=size + 1)
        result = bench_list(
            records, queries, runs=args.runs, baseline_queries=args.baseline_queries, label=f"{kind} {size:,}"
        )
        _print(result)
        if kind == "peps":
            figures["pep_100k_p95_ms"] = result["p95_ms"]
        elif size >= 500_000:
            figures["screen_1m_p95_ms"] = result["p95_ms"]
            figures["index_1m_mb"] = result["rss_growth_mb"]
        else:
            figures["screen_20k_p95_ms"] = result["p95_ms"]
        del records
        gc.collect()
    print("names_index " + " ".join(f"{name}={value:.2f}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
