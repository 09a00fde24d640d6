"""Benchmark: the AML engine's set-based batch scan against a per-transaction loop.

    .venv/bin/python bench/aml_engine.py [--transactions 1000000] [--sample 300] [--reuse]

Builds a separate PostgreSQL database (``bench_aml`` on the server of
DATABASE_URL, default postgres://postgres@127.0.0.1:5432), migrates it, loads
a synthetic Eswatini ledger with COPY (users and vendors with bulk inserts),
loads the 43-rule catalogue with every rule active, then measures:

* engine: ``run_aml_scan`` over the whole ledger (every rule, one set-based
  statement per rule, alerts raised and deduplicated);
* loop: the same rules applied transaction by transaction (the record-time
  screening, ``scan_transaction``, called in a Python loop) over a random
  sample of the same ledger, rolled back afterwards, and extrapolated to the
  whole ledger: the loop over a million rows would take hours.

It prints a table of figures and ratios. ``--reuse`` keeps an already loaded
database (same size) and only re-runs the measurements (alerts are cleared).
"""

import argparse
import datetime as dt
import io
import os
import random
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# another name keeps parallel runs (several worktrees on one server) apart
BENCH_DB = os.environ.get("BENCH_AML_DB", "bench_aml")


def _server_url() -> str:
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    if not url.startswith("postgres"):
        url = "postgres://postgres@127.0.0.1:5432/postgres"
    return url


def _create_database(drop: bool) -> str:
    import psycopg2

    parts = urlparse(_server_url())
    admin = psycopg2.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=parts.username or "postgres",
        password=parts.password,
        dbname="postgres",
    )
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_database WHERE datname = %s", [BENCH_DB])
        exists = cur.fetchone() is not None
        if exists and drop:
            cur.execute(f"DROP DATABASE {BENCH_DB}")
            exists = False
        if not exists:
            cur.execute(f"CREATE DATABASE {BENCH_DB}")
    admin.close()
    return parts._replace(path=f"/{BENCH_DB}").geturl()


def _setup_django(db_url: str) -> None:
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("ENVIRONMENT", "test")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-for-production-use-0123456789")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")
    # bulk loads and index builds over millions of rows: no statement timeout (and no client deadline,
    # which COPY could not run under; backoffice.ops.db_deadline)
    os.environ.setdefault("DB_STATEMENT_TIMEOUT", "0")
    import django

    django.setup()


OCCUPATIONS = [
    "teacher",
    "nurse",
    "farmer",
    "civil servant",
    "driver",
    "shop owner",
    "student",
    "unemployed",
    "pensioner",
    "domestic worker",
    "informal trader",
    "mechanic",
    "police officer",
    "accountant",
]
REGIONS = ["Hhohho", "Manzini", "Lubombo", "Shiselweni"]
BORDER = ["Ngwenya", "Lavumisa", "Mahamba", "Lomahasha"]
SECTORS = [
    "groceries",
    "transport",
    "airtime",
    "pharmacy",
    "hardware",
    "restaurant",
    "clothing",
    "fuel",
    "gambling",
    "liquor",
    "used cars",
    "money services",
]
VENDOR_STATUSES = ["VERIFIED"] * 7 + ["PENDING", "UNDER_REVIEW", "REJECTED"]
TYPES = (
    ["TOP_UP"] * 25
    + ["TRANSFER_OUT"] * 14
    + ["TRANSFER_IN"] * 15
    + ["VENDOR_PAYMENT"] * 25
    + ["WITHDRAWAL"] * 12
    + ["CARD_PAYMENT"] * 8
    + ["ADMIN_CREDIT"] * 1
)
CHANNELS = ["MOBILE_MONEY"] * 50 + ["WALLET"] * 35 + ["CARD"] * 10 + ["BANK"] * 5
COUNTRIES = ["SZ"] * 990 + ["ZA"] * 8 + ["MZ", "SO"]
STATUSES = ["COMPLETED"] * 97 + ["FAILED"] * 2 + ["REVERSED"]


def _load(n_tx: int, seed: int = 2026) -> dict:
    """Users and vendors by bulk_create, the ledger by COPY. Deterministic for a given seed."""
    from django.db import connection

    from kyc.models import PlatformUser, Transaction
    from vendors.models import Vendor

    rng = random.Random(seed)
    end = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    start = end - dt.timedelta(days=90)
    n_users = max(100, n_tx // 50)
    password = "!bench-unusable"  # an unusable hash: nobody signs in to the bench database
    users = [
        PlatformUser(
            id=uuid.UUID(int=rng.getrandbits(128), version=4),
            phone_number=f"+2687{i:07d}",
            password=password,
            first_name=f"User{i}",
            last_name="Bench",
            referral_code=f"B{i:09d}",
            occupation=rng.choice(OCCUPATIONS),
            region=rng.choice(REGIONS),
            is_potential_pep=rng.random() < 0.005,
        )
        for i in range(n_users)
    ]
    PlatformUser.objects.bulk_create(users, batch_size=5000)
    opened = [start - dt.timedelta(days=rng.randint(0, 700)) for _ in users]
    with connection.cursor() as cur:
        buf = io.StringIO("".join(f"{u.pk}\t{o.isoformat()}\n" for u, o in zip(users, opened, strict=True)))
        cur.execute("CREATE TEMP TABLE bench_opened (id uuid, created_at timestamptz)")
        cur.copy_expert("COPY bench_opened FROM STDIN", buf)
        cur.execute(
            f"UPDATE {PlatformUser._meta.db_table} u SET created_at = b.created_at FROM bench_opened b "
            "WHERE b.id = u.id"
        )
    vendors = [
        Vendor(
            id=uuid.UUID(int=rng.getrandbits(128), version=4),
            business_name=f"Vendor {i}",
            email=f"v{i}@bench.example",
            phone_number=f"+2688{i:07d}",
            password="!bench-unusable",
            kyc_status=rng.choice(VENDOR_STATUSES),
            business_sector=rng.choice(SECTORS),
        )
        for i in range(max(20, n_users // 40))
    ]
    Vendor.objects.bulk_create(vendors, batch_size=5000)

    # Heavy users make bursts, so window rules have real work and real hits.
    weights = [rng.paretovariate(1.3) for _ in users]
    user_ids = [str(u.pk) for u in users]
    picked_users = rng.choices(user_ids, weights=weights, k=n_tx)
    span = int((end - start).total_seconds())
    columns = (
        "id",
        "user_id",
        "type",
        "amount",
        "currency",
        "status",
        "channel",
        "reference",
        "reason",
        "description",
        "counterparty_user_id",
        "counterparty_vendor_id",
        "country",
        "region",
        "created_at",
    )
    buf = io.StringIO()
    vendor_ids = [str(v.pk) for v in vendors]
    for i in range(n_tx):
        tx_type = rng.choice(TYPES)
        amount = min(round(rng.lognormvariate(5.3, 1.25), 2), 250000.0)
        if amount < 1:
            amount = 1.0
        if rng.random() < 0.02:  # repeated round amounts: what structuring and pattern rules look for
            amount = rng.choice([2000.0, 4900.0, 9000.0, 9500.0])
        counterparty = rng.choice(user_ids) if tx_type in ("TRANSFER_IN", "TRANSFER_OUT") else "\\N"
        vendor = rng.choice(vendor_ids) if tx_type in ("VENDOR_PAYMENT", "CARD_PAYMENT") else "\\N"
        region = rng.choice(BORDER) if rng.random() < 0.01 else rng.choice(REGIONS)
        moment = start + dt.timedelta(seconds=rng.randrange(span))
        buf.write(
            f"{uuid.UUID(int=rng.getrandbits(128), version=4)}\t{picked_users[i]}\t{tx_type}\t{amount:.2f}\tSZL\t"
            f"{rng.choice(STATUSES)}\t{rng.choice(CHANNELS)}\tB-{i:09d}\t\t\t{counterparty}\t{vendor}\t"
            f"{rng.choice(COUNTRIES)}\t{region}\t{moment.isoformat()}\n"
        )
    buf.seek(0)
    with connection.cursor() as cur:
        cur.copy_expert(f"COPY {Transaction._meta.db_table} ({', '.join(columns)}) FROM STDIN", buf)
        cur.execute(f"ANALYZE {Transaction._meta.db_table}")
        cur.execute(f"ANALYZE {PlatformUser._meta.db_table}")
        cur.execute(f"ANALYZE {Vendor._meta.db_table}")
    return {"users": n_users, "vendors": len(vendors), "start": start, "end": end}


def _clear_alerts() -> None:
    from django.db import connection

    from compliance.aml.models.alerts import Alert

    with connection.cursor() as cur:
        cur.execute(f"TRUNCATE {Alert.related_transactions.through._meta.db_table}, {Alert._meta.db_table} CASCADE")


def _loop(sample_ids: list) -> float:
    """Seconds to screen each sampled transaction on its own, rolled back afterwards."""
    from django.db import transaction

    from compliance.aml.services.scans import scan_transaction

    started = time.perf_counter()
    with transaction.atomic():
        for tx_id in sample_ids:
            scan_transaction(tx_id)
        transaction.set_rollback(True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transactions", type=int, default=1_000_000)
    parser.add_argument("--sample", type=int, default=300, help="transactions screened one by one for the loop")
    parser.add_argument("--reuse", action="store_true", help="keep an already loaded bench database")
    args = parser.parse_args()

    db_url = _create_database(drop=not args.reuse)
    _setup_django(db_url)
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Max, Min

    from compliance.aml.models.alerts import Alert
    from compliance.aml.models.rules import AMLRule
    from compliance.aml.services.catalogue import rule_catalogue_load
    from compliance.aml.services.scans import scan
    from kyc.models import Transaction

    call_command("migrate", verbosity=0)
    existing = Transaction.objects.count()
    load_seconds = 0.0
    if existing != args.transactions:
        if existing:
            sys.exit(f"{BENCH_DB} holds {existing} transactions; run without --reuse to rebuild it")
        print(f"Loading {args.transactions:,} transactions into {BENCH_DB} ...", flush=True)
        started = time.perf_counter()
        _load(args.transactions)
        load_seconds = time.perf_counter() - started
    rule_catalogue_load()
    AMLRule.objects.update(is_active=True)
    _clear_alerts()
    bounds = Transaction.objects.aggregate(first=Min("created_at"), last=Max("created_at"))
    first, last = bounds["first"], bounds["last"]
    n_tx = Transaction.objects.count()
    rules = AMLRule.objects.filter(is_active=True).count()

    rng = random.Random(7)
    with connection.cursor() as cur:
        cur.execute(f"SELECT id FROM {Transaction._meta.db_table} WHERE status = 'COMPLETED' ORDER BY id")
        all_ids = [row[0] for row in cur.fetchall()]
    sample = rng.sample(all_ids, min(args.sample, len(all_ids)))
    del all_ids

    print(f"Per-transaction loop over a sample of {len(sample)} ...", flush=True)
    loop_seconds = _loop(sample)
    loop_rate = len(sample) / loop_seconds

    print("Engine batch scan over the whole ledger ...", flush=True)
    started = time.perf_counter()
    result = scan(since=first, until=last)
    engine_seconds = time.perf_counter() - started
    engine_rate = n_tx / engine_seconds
    started = time.perf_counter()
    again = scan(since=first, until=last)
    rescan_seconds = time.perf_counter() - started

    loop_extrapolated = n_tx / loop_rate
    rows = [
        ("Ledger transactions", f"{n_tx:,}"),
        ("Active rules (catalogue)", f"{rules}"),
        ("Load time (bulk insert + COPY)", f"{load_seconds:,.1f} s" if load_seconds else "reused"),
        ("Engine: batch scan, all rules", f"{engine_seconds:,.1f} s"),
        ("Engine: transactions per second", f"{engine_rate:,.0f} tx/s"),
        ("Engine: hits / alerts raised", f"{result.hits:,} / {result.alerts_created:,} ({result.errors} rule errors)"),
        ("Engine: re-scan (dedup, 0 new expected)", f"{rescan_seconds:,.1f} s, {again.alerts_created} new"),
        ("Loop: sample screened one by one", f"{len(sample)} tx in {loop_seconds:,.1f} s"),
        ("Loop: transactions per second", f"{loop_rate:,.1f} tx/s"),
        ("Loop: extrapolated to the whole ledger", f"{loop_extrapolated / 3600:,.1f} h"),
        ("Ratio engine / loop", f"{engine_rate / loop_rate:,.0f}x"),
        ("Target >= 20,000 tx/s", "met" if engine_rate >= 20000 else "NOT met"),
        ("Target >= 50x the loop", "met" if engine_rate / loop_rate >= 50 else "NOT met"),
    ]
    width = max(len(k) for k, _ in rows)
    print()
    print(f"{'Measure':<{width}} | Value")
    print(f"{'-' * width}-+-{'-' * 30}")
    for key, value in rows:
        print(f"{key:<{width}} | {value}")
    print()
    print("Slowest rules in the batch scan:")
    slow = sorted(result.per_rule.items(), key=lambda kv: -kv[1].get("seconds", 0))[:8]
    for rule_id, figures in slow:
        print(f"  {rule_id:<12} {figures.get('seconds', 0):>6.2f} s  {figures.get('hits', 0):>6} hits")
    print(f"\nAlerts in the database: {Alert.objects.count():,}")


if __name__ == "__main__":
    main()
