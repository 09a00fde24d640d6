"""Quality, blocking recall, speed and memory of the person-name matcher (kyc/names).

    .venv/bin/python bench/pep_matcher_quality.py [--threshold 0.8] [--no-rigour] [--quiet]

For each labelled set in bench/names/ (dev_pairs.csv, tuned on; holdout_pairs.csv, written after the design was
frozen and never tuned on) it prints precision, recall and F1 at the threshold, the confusion cases, and the
blocking recall: the share of true matches whose two sides share a stored key (blocking_keys), and a key
searched from either side (lookup_keys with the default frequency prior). Then speed (median of repeated runs,
cold and warm caches) and memory (RSS of a fresh interpreter after import and first use). When rigour is
installed it also scores the same pairs with a baseline built on rigour's name analysis (symbol pairing and
residue distance), to compare the two stacks on the same sets.
"""

import argparse
import csv
import gc
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kyc.names import (  # noqa: E402
    DEFAULT_THRESHOLD,
    MATCHER_VERSION,
    Person,
    blocking_keys,
    compare,
    lookup_keys,
)

SETS = ("dev_pairs.csv", "holdout_pairs.csv")


def load_pairs(path: Path) -> list[dict]:
    pairs = []
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            query = Person(row["query"], date_of_birth=row.get("query_dob") or None,
                           country=row.get("query_country") or None)  # fmt: skip
            aliases = tuple(alias for alias in (row.get("candidate_aliases") or "").split(";") if alias)
            candidate = Person(row["candidate"], aliases=aliases, date_of_birth=row.get("candidate_dob") or None,
                               country=row.get("candidate_country") or None)  # fmt: skip
            pairs.append({"query": query, "candidate": candidate, "label": row["label"] == "1",
                          "category": row.get("category", "")})  # fmt: skip
    return pairs


def metrics(predicted: list[bool], labels: list[bool]) -> dict[str, float]:
    tp = sum(p and t for p, t in zip(predicted, labels, strict=True))
    fp = sum(p and not t for p, t in zip(predicted, labels, strict=True))
    fn = sum(t and not p for p, t in zip(predicted, labels, strict=True))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall, "f1": f1}


def report_quality(name: str, pairs: list[dict], scores: list[float], threshold: float, quiet: bool) -> dict:
    labels = [pair["label"] for pair in pairs]
    result = metrics([score >= threshold for score in scores], labels)
    positives = sum(labels)
    print(f"  {name}: {len(pairs)} pairs ({positives} matches, {len(pairs) - positives} non-matches)")
    print(f"    at threshold {threshold:.2f}: precision {result['precision']:.3f}  recall {result['recall']:.3f}"
          f"  F1 {result['f1']:.3f}  (tp {result['tp']}, fp {result['fp']}, fn {result['fn']})")  # fmt: skip
    sweep = []
    for value in (0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9):
        swept = metrics([score >= value for score in scores], labels)
        sweep.append(f"{value:.2f}: P {swept['precision']:.2f} R {swept['recall']:.2f} F1 {swept['f1']:.3f}")
    print("    sweep  " + " | ".join(sweep))
    if not quiet:
        for pair, score in zip(pairs, scores, strict=True):
            if (score >= threshold) != pair["label"]:
                kind = "false match   " if score >= threshold else "missed match  "
                print(
                    f"    {kind} {score:.3f} [{pair['category']}] {pair['query'].name!r} ~ {pair['candidate'].name!r}"
                )
    return result


def blocking_recall(pairs: list[dict]) -> None:
    positives = [pair for pair in pairs if pair["label"]]
    stored = [(blocking_keys(pair["query"]), blocking_keys(pair["candidate"])) for pair in positives]
    shared = sum(bool(query & candidate) for query, candidate in stored)
    searched = 0
    misses = []
    for pair, (query_keys, candidate_keys) in zip(positives, stored, strict=True):
        # the integration searches from both sides: a new PEP against users, a new user against PEPs
        found = lookup_keys(pair["query"]) & candidate_keys or lookup_keys(pair["candidate"]) & query_keys
        searched += bool(found)
        if not found:
            misses.append(f"{pair['query'].name!r} ~ {pair['candidate'].name!r}")
    names = [keys for pair in stored for keys in pair]
    lookups = [lookup_keys(pair[side]) for pair in positives for side in ("query", "candidate")]
    print(f"    blocking recall: stored keys shared {shared}/{len(positives)} ({shared / len(positives):.3f}),"
          f" searched keys hit {searched}/{len(positives)} ({searched / len(positives):.3f});"
          f" keys per person stored {statistics.mean(map(len, names)):.1f},"
          f" searched {statistics.mean(map(len, lookups)):.1f}")  # fmt: skip
    for miss in misses:
        print(f"      blocking miss: {miss}")


def clear_caches() -> None:
    from kyc.names import parse, parts

    for function in (parse.parse_name, parts.part_similarity, parts.spelling_key, parts.skeleton,
                     parts.translit_key):  # fmt: skip
        function.cache_clear()


def timed(function: Callable[[], object], repeats: int = 5, cold: bool = False) -> float:
    runs = []
    for _ in range(repeats):
        if cold:
            clear_caches()
        gc.collect()
        start = time.perf_counter()
        function()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def report_speed(pairs: list[dict]) -> None:
    def compare_all() -> None:
        for pair in pairs:
            compare(pair["query"], pair["candidate"])

    def keys_all() -> None:
        for pair in pairs:
            blocking_keys(pair["query"])
            blocking_keys(pair["candidate"])

    count = len(pairs)
    cold = timed(compare_all, cold=True) / count * 1e6
    warm = timed(compare_all) / count * 1e6
    keys_cold = timed(keys_all, cold=True) / (2 * count) * 1e6
    keys_warm = timed(keys_all) / (2 * count) * 1e6
    print(f"  speed (median of 5 runs over {count} pairs): compare {cold:.0f} µs cold caches, {warm:.0f} µs warm;"
          f" blocking_keys {keys_cold:.0f} µs cold, {keys_warm:.0f} µs warm")  # fmt: skip


_MEMORY_PROBES = {
    "kyc.names (anyascii + rapidfuzz)": (
        "from kyc.names import Person, compare, blocking_keys",
        "compare(Person('Владимир Путин'), Person('Vladimir Putin')); blocking_keys(Person('习近平'))",
    ),
    "rigour (+ PyICU)": (
        "from rigour.names import analyze_names, NameTypeTag; from rigour.text.translit import ascii_text",
        "analyze_names(NameTypeTag.PER, [ascii_text('Владимир Путин'), 'Vladimir Putin'])",
    ),
}


def report_memory(include_rigour: bool) -> None:
    for label, (imports, use) in _MEMORY_PROBES.items():
        if label.startswith("rigour") and not include_rigour:
            continue
        script = (
            "import sys, time; sys.path.insert(0, sys.argv[1])\n"
            "def rss(): return int(open('/proc/self/statm').read().split()[1]) * 4096 / 2**20\n"
            f"base = rss(); start = time.perf_counter(); {imports}\n"
            f"imported = rss(); {use}\n"
            "print(f'{imported - base:.1f} {rss() - base:.1f} {time.perf_counter() - start:.2f}')\n"
        )
        done = subprocess.run([sys.executable, "-c", script, str(ROOT)], capture_output=True, text=True)
        if done.returncode:
            print(f"  memory {label}: not measured ({done.stderr.strip().splitlines()[-1]})")
            continue
        after_import, after_use, seconds = done.stdout.split()
        print(f"  memory {label}: RSS +{after_import} MiB after import, +{after_use} MiB after first use"
              f" ({seconds} s to import and first use)")  # fmt: skip


def rigour_scorer() -> Callable[[Person, Person], float] | None:
    """A baseline on rigour: names transliterated by ICU, analysed, symbol-paired, residue compared."""
    try:
        from rigour.names import NameTypeTag, analyze_names, compare_parts, pair_symbols
        from rigour.text.translit import ascii_text
    except ImportError:
        return None

    def names_of(person: Person):
        return analyze_names(NameTypeTag.PER, [ascii_text(name) for name in person.names], infer_initials=True,
                             consolidate=False)  # fmt: skip

    def score_names(query, result) -> float:
        best = 0.0
        pairings = pair_symbols(query, result) or [()]
        for pairing in [*pairings, ()]:
            used_q = {part for alignment in pairing for part in alignment.qps}
            used_r = {part for alignment in pairing for part in alignment.rps}
            alignments = list(pairing)
            rest_q = [part for part in query.parts if part not in used_q]
            rest_r = [part for part in result.parts if part not in used_r]
            if rest_q or rest_r:
                alignments += compare_parts(rest_q, rest_r)
            shorter_is_query = len(query.parts) <= len(result.parts)
            total = weight = 0.0
            for alignment in alignments:
                if alignment.qps and alignment.rps:
                    value = 0.9 if alignment.symbol is not None else alignment.score
                    size = max(len(alignment.qps), len(alignment.rps))
                    total, weight = total + value * size, weight + size
                else:
                    extra_on_shorter = bool(alignment.qps) == shorter_is_query
                    weight += (1.0 if extra_on_shorter else 0.3) * len(alignment.qps or alignment.rps)
            best = max(best, total / weight if weight else 0.0)
        return best

    def score(query: Person, candidate: Person) -> float:
        return max((score_names(q, r) for q in names_of(query) for r in names_of(candidate)), default=0.0)

    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    parser.add_argument("--no-rigour", action="store_true", help="skip the rigour baseline")
    parser.add_argument("--quiet", action="store_true", help="do not list the confusion cases")
    args = parser.parse_args()

    print(f"Person-name matcher {MATCHER_VERSION}, threshold {args.threshold:.2f}")
    loaded = {
        name: load_pairs(ROOT / "bench" / "names" / name) for name in SETS if (ROOT / "bench/names" / name).exists()
    }
    for name, pairs in loaded.items():
        print(
            f"\n[{name}] categories: "
            + ", ".join(f"{k} {v}" for k, v in sorted(Counter(p["category"] for p in pairs).items()))
        )
        scores = [compare(pair["query"], pair["candidate"]).score for pair in pairs]
        report_quality("kyc.names", pairs, scores, args.threshold, args.quiet)
        blocking_recall(pairs)
    baseline = None if args.no_rigour else rigour_scorer()
    if baseline is not None:
        print("\n[rigour baseline] same sets")
        for name, pairs in loaded.items():
            start = time.perf_counter()
            scores = [baseline(pair["query"], pair["candidate"]) for pair in pairs]
            elapsed = (time.perf_counter() - start) / len(pairs) * 1e6
            report_quality(f"rigour on {name}", pairs, scores, args.threshold, quiet=True)
            print(f"    speed: {elapsed:.0f} µs per pair (first pass, includes analysis)")
    print("\n[speed and memory]")
    all_pairs = [pair for pairs in loaded.values() for pair in pairs]
    report_speed(all_pairs)
    report_memory(include_rigour=baseline is not None)


if __name__ == "__main__":
    main()
