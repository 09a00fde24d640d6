"""Benchmark: backtesting every catalogue rule over 30 days of the ledger, against the batch scan of that window.

    .venv/bin/python bench/aml_backtest.py [--transactions 1000000] [--days 30] [--repeats 3] [--reuse]
                                           [--database bench_aml]

Uses the ledger of ``bench/aml_engine.py`` (same database, same synthetic
data; built if missing or of another size). For each of the 43 catalogue
rules it runs ``compliance.aml.engine.backtest.backtest`` over the last
``--days`` of the ledger with the rule's own conditions given as proposed
conditions (so both the candidate and the current version are evaluated, as
for a real proposal), and the batch scan (``runner.scan``, every rule,
alerts raised) over the same window inside a transaction that is rolled
back. Each is repeated ``--repeats`` times; the table shows medians, seconds
per rule and in total, and the ratio backtest / scan. A progress line is
printed per rule.
"""

import argparse
import datetime as dt
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import aml_engine  # noqa: E402  (the ledger builder shared with the engine benchmark)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transactions", type=int, default=1_000_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--reuse", action="store_true", help="keep an already loaded bench database")
    parser.add_argument("--database", default=aml_engine.BENCH_DB)
    args = parser.parse_args()

    aml_engine.BENCH_DB = args.database
    db_url = aml_engine._create_database(drop=not args.reuse)
    aml_engine._setup_django(db_url)
    from django.core.management import call_command
    from django.db import transaction
    from django.db.models import Max

    from compliance.aml.engine.backtest import backtest
    from compliance.aml.models.rules import AMLRule
    from compliance.aml.services.catalogue import rule_catalogue_load
    from compliance.aml.services.scans import scan
    from kyc.models import Transaction

    call_command("migrate", verbosity=0)
    existing = Transaction.objects.count()
    if existing != args.transactions:
        if existing:
            sys.exit(f"{args.database} holds {existing} transactions; run without --reuse to rebuild it")
        print(f"Loading {args.transactions:,} transactions into {args.database} ...", flush=True)
        aml_engine._load(args.transactions)
    rule_catalogue_load()
    AMLRule.objects.update(is_active=True)
    aml_engine._clear_alerts()
    until = Transaction.objects.aggregate(last=Max("created_at"))["last"]
    since = until - dt.timedelta(days=args.days)
    in_window = Transaction.objects.filter(created_at__gte=since, created_at__lte=until).count()
    rules = list(AMLRule.objects.filter(is_active=True).order_by("priority", "rule_id"))

    per_rule: dict[str, list[float]] = {r.rule_id: [] for r in rules}
    hits: dict[str, int] = {}
    totals, scans = [], []
    for run in range(1, args.repeats + 1):
        started_all = time.perf_counter()
        for i, rule in enumerate(rules, 1):
            started = time.perf_counter()
            result = backtest(rule=rule, since=since, until=until, conditions=dict(rule.conditions))
            seconds = time.perf_counter() - started
            per_rule[rule.rule_id].append(seconds)
            hits[rule.rule_id] = len(result.hits)
            print(f"\r  run {run}/{args.repeats}: backtest {i}/{len(rules)} {rule.rule_id:<14}", end="", flush=True)
        totals.append(time.perf_counter() - started_all)
        print(f"\r  run {run}/{args.repeats}: batch scan of the window ...          ", end="", flush=True)
        started = time.perf_counter()
        with transaction.atomic():
            scanned = scan(since=since, until=until)
            transaction.set_rollback(True)
        scans.append(time.perf_counter() - started)
    print()

    total, scan_seconds = statistics.median(totals), statistics.median(scans)
    slowest = max(statistics.median(v) for v in per_rule.values())
    rows = [
        (
            "Ledger transactions / in the window",
            f"{existing or args.transactions:,} / {in_window:,} ({args.days} days)",
        ),
        ("Rules backtested", f"{len(rules)}"),
        ("Repeats (figures are medians)", f"{args.repeats}"),
        ("Backtest, every rule (candidate + current)", f"{total:,.1f} s"),
        ("Backtest, mean per rule", f"{total / len(rules):,.2f} s"),
        ("Batch scan of the same window, all rules", f"{scan_seconds:,.1f} s ({scanned.hits:,} hits)"),
        ("Ratio backtest total / batch scan", f"{total / scan_seconds:,.2f}x"),
        ("Slowest rule's backtest", f"{slowest:,.1f} s"),
        ("Target: every rule's backtest < 60 s", "met" if slowest < 60 else "NOT met"),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"{'Measure':<{width}} | Value")
    print(f"{'-' * width}-+-{'-' * 36}")
    for key, value in rows:
        print(f"{key:<{width}} | {value}")
    print()
    print(f"{'Rule':<14} | {'median s':>8} | {'hits':>7}")
    for rule_id, values in sorted(per_rule.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"{rule_id:<14} | {statistics.median(values):>8.2f} | {hits[rule_id]:>7,}")


if __name__ == "__main__":
    main()
