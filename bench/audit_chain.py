"""Benchmark: what the audit chain costs a write, and how fast a million entries verify (PostgreSQL).

    .venv/bin/python bench/audit_chain.py              # creates PostgreSQL database bench_audit once
    .venv/bin/python bench/audit_chain.py --reset      # drop it and start again
    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/audit_chain.py

Rows of the table:
  chained   an audited write as the product makes it: a row updated and its audit entry appended
            (``audit_record``; on PostgreSQL linked under the chain head's lock inside the COMMIT), in one
            transaction, then the wait for its flush;
  plain     the same write with the entry inserted without the chain: one INSERT, its sequence from a
            PostgreSQL SEQUENCE inside that statement, no head lock, no hashing: the baseline, in the same run;
each with 1 writer and with 8 concurrent writers (a connection each) in three shapes: 8 threads of one process,
the server's shape on two CPUs (2 processes of 4 threads, scripts/serve), 8 processes. Threads of one process
share its interpreter lock, so there every round trip more waits for the others' Python as well.
Then ``verify_audit``'s walk over 1,000,000 entries, in a fresh process: the resident memory once Django is
loaded, the process's peak (VmHWM, which a new program image starts afresh, unlike ``ru_maxrss``, which keeps the
peak of the benchmark process it was forked from), the difference, which is what the walk itself adds, and in a
second fresh process the walk under tracemalloc (the peak of what Python allocated during it).
Targets: the chain adds under 1 ms p95 to a write; 1M entries verify in under 60 s in under 200 MB.
"""

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bench_audit"


def _ensure_database(url: str, reset: bool) -> None:
    import psycopg2
    from psycopg2 import sql

    name = url.rsplit("/", 1)[1].split("?")[0]
    admin = psycopg2.connect(url.rsplit("/", 1)[0] + "/postgres")
    admin.autocommit = True
    with admin.cursor() as cursor:
        if reset:
            cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    admin.close()


def _setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("ENVIRONMENT", "development")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-for-production-use-0123456789")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")
    os.environ.setdefault("DB_STATEMENT_TIMEOUT", "0")
    import django

    django.setup()


def _migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _writes(chained: bool, writers: int, per_writer: int, processes: int = 1) -> list[float]:
    """Latency (ms) of each audited write: an UPDATE of the writer's own staff row, then its audit entry.
    ``writers`` threads in all, spread over ``processes`` forked processes (the server's shape: gunicorn's
    workers are processes of threads, and threads of one process share its interpreter lock)."""
    import multiprocessing

    from django.db import connections

    if processes == 1:
        return _writes_in_process(chained, range(writers), per_writer, None)
    connections.close_all()  # a forked child must not share the parent's connection
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(writers)
    results = context.Queue()
    per_process = writers // processes
    children = [
        context.Process(
            target=lambda indexes: results.put(_writes_in_process(chained, indexes, per_writer, barrier)),
            args=(range(p * per_process, (p + 1) * per_process),),
        )
        for p in range(processes)
    ]
    for child in children:
        child.start()
    latencies = [ms for _ in children for ms in results.get()]
    for child in children:
        child.join()
    return latencies


def _writes_in_process(chained: bool, indexes: range, per_writer: int, barrier) -> list[float]:
    from django.db import connections, transaction
    from django.db.models.expressions import RawSQL

    from backoffice.audit import audit_entry, audit_record
    from backoffice.models import AuditLog, Staff

    staff = list(Staff.objects.order_by("email")[: indexes.stop])
    latencies: list[list[float]] = [[] for _ in indexes]
    barrier = barrier or threading.Barrier(len(indexes))
    connections.close_all()

    def plain_append(entry):
        # one INSERT, as a log without the chain would write it: the sequence comes inside the statement
        entry.sequence = RawSQL("nextval('bench_audit_plain_seq')", [])
        entry.digest = entry.hash = ""
        AuditLog.objects.bulk_create([entry])

    def work(slot: int, index: int):
        me = staff[index]
        barrier.wait()
        try:
            for i in range(per_writer):
                started = time.perf_counter()
                with transaction.atomic():
                    Staff.objects.filter(pk=me.pk).update(first_name=f"w{i}")
                    fields = dict(actor=me, action="bench.write", object_type="staff", object_id=me.pk)
                    fields["changes"] = {"first_name": {"from": f"w{i - 1}", "to": f"w{i}"}}
                    if chained:
                        audit_record(**fields)
                    else:
                        # the plain path neither hashes nor locks the head: that is the difference measured
                        plain_append(audit_entry(**fields))
                latencies[slot].append((time.perf_counter() - started) * 1000)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(slot, index)) for slot, index in enumerate(indexes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [ms for per in latencies for ms in per]


def _prepare_writers(count: int) -> None:
    from django.db import connection

    from backoffice.models import Staff

    for i in range(count):
        Staff.objects.get_or_create(email=f"bench-writer-{i}@example.com", defaults={"role": "admin"})
    with connection.cursor() as cursor:
        # the plain path's sequences stay far above the chain's, so the two never meet
        cursor.execute("CREATE SEQUENCE IF NOT EXISTS bench_audit_plain_seq START 1000000000000")


def _clear_plain() -> None:
    from backoffice.models import AuditLog

    AuditLog.objects.filter(sequence__gte=1_000_000_000_000).delete()


def _load_million(total: int) -> None:
    """Bring the chain to ``total`` entries with COPY: each hashed as ``chain_append`` would (the same functions)."""
    import datetime as dt

    from django.db import connection

    from backoffice.audit_chain import entry_digest, link
    from backoffice.models import AuditChainHead, AuditLog

    have = AuditLog.objects.filter(sequence__lt=1_000_000_000_000).count()
    if have >= total:
        print(f"bench_audit already holds {have} chained entries; loading skipped")
        return
    head = AuditChainHead.objects.get(pk=1)
    previous, sequence = head.hash, head.sequence
    started = time.perf_counter()
    base = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    columns = "sequence, actor_email, action, object_type, object_id, changes, ip_address, created_at, digest, hash"
    batch = io.StringIO()
    rows_in_batch = 0

    def flush():
        nonlocal batch, rows_in_batch
        batch.seek(0)
        with connection.cursor() as cursor:
            cursor.copy_expert(f"COPY backoffice_auditlog ({columns}) FROM STDIN WITH (FORMAT csv)", batch)
        batch, rows_in_batch = io.StringIO(), 0

    import csv

    writer = csv.writer(batch)
    while sequence < total:
        sequence += 1
        entry = AuditLog(
            sequence=sequence,
            actor_email=f"officer{sequence % 40}@example.com",
            action="user.update",
            object_type="kyc_user",
            object_id=f"{sequence:032x}",
            changes={"first_name": {"from": "Thandiwe", "to": f"Thandi {sequence}"}, "amount": sequence % 997 / 4},
            ip_address="10.0.0.7",
            created_at=base + dt.timedelta(seconds=sequence),
        )
        entry.digest = entry_digest(entry)
        entry.hash = previous = link(previous, entry.digest)
        writer.writerow(
            [
                entry.sequence,
                entry.actor_email,
                entry.action,
                entry.object_type,
                entry.object_id,
                json.dumps(entry.changes),
                entry.ip_address,
                entry.created_at.isoformat(),
                entry.digest,
                entry.hash,
            ]
        )
        rows_in_batch += 1
        if rows_in_batch >= 50_000:
            flush()
            writer = csv.writer(batch)
    if rows_in_batch:
        flush()
    AuditChainHead.objects.filter(pk=1).update(sequence=sequence, hash=previous)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE backoffice_auditlog")
    print(f"loaded the chain to {sequence} entries in {time.perf_counter() - started:.0f} s")


def _verify_in_child(url: str, *, traced: bool = False) -> dict:
    """``audit_verify`` over the whole chain in a fresh process (``--child-verify``): its wall time and memory."""
    env = {**os.environ, "BENCH_DATABASE_URL": url}
    command = [sys.executable, __file__, "--child-verify"] + (["--traced"] if traced else [])
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _status_mb(field: str) -> float:
    """VmRSS (now) or VmHWM (peak) of this process image, in MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise LookupError(field)


def _child_verify(url: str, traced: bool) -> None:
    import gc
    import tracemalloc

    _setup_django(url)
    from backoffice.services.audit_verify import audit_verify

    gc.collect()
    base = _status_mb("VmRSS")
    if traced:
        tracemalloc.start()
    started = time.perf_counter()
    result = audit_verify()
    seconds = time.perf_counter() - started
    figures = {"seconds": seconds, "entries": result.entries, "intact": result.intact, "base_mb": base}
    figures["peak_mb"] = _status_mb("VmHWM")
    if traced:
        figures["traced_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reset", action="store_true")
    parser.add_argument("--writes", type=int, default=400, help="writes per writer (default 400)")
    parser.add_argument("--entries", type=int, default=1_000_000, help="chain length for the walk")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each write line (medians reported)")
    parser.add_argument("--writes-only", action="store_true", help="skip the million-entry walk")
    parser.add_argument("--child-verify", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    if args.child_verify:
        _child_verify(url, args.traced)
        return
    _ensure_database(url, args.reset)
    _setup_django(url)
    _migrate()
    _prepare_writers(8)
    print(f"machine load before: {os.getloadavg()[0]:.2f}")
    rows = {}
    # (writers, processes): one writer; eight threads of one process; the server's shape on two CPUs (two
    # processes of four threads, scripts/serve); eight processes
    shapes = ((1, 1), (8, 1), (8, 2), (8, 8))
    for writers, processes in shapes:
        for chained in (False, True):
            p50s, p95s = [], []
            for _ in range(args.repeat):
                per_writer = args.writes if writers == 1 else args.writes // 4
                lat = _writes(chained, writers, per_writer, processes)
                p50s.append(_pct(lat, 0.5))
                p95s.append(_pct(lat, 0.95))
            rows[(writers, processes, chained)] = (statistics.median(p50s), statistics.median(p95s))
            name = "chained" if chained else "plain"
            p50, p95 = rows[(writers, processes, chained)]
            print(f"{name:8s} writers={writers} processes={processes}  p50 {p50:6.2f} ms  p95 {p95:6.2f} ms")
    _clear_plain()
    added = {}
    for writers, processes in shapes:
        chained, plain = rows[(writers, processes, True)][1], rows[(writers, processes, False)][1]
        added[(writers, processes)] = chained - plain
        print(
            f"chain adds p95 {chained - plain:+.2f} ms with {writers} writer(s) in {processes} process(es)"
            f" (x{chained / plain:.2f} the plain write)"
        )
    figures = " ".join(f"added_p95_{w}w_{p}p_ms={v:.2f}" for (w, p), v in added.items())
    if args.writes_only:
        print(f"machine load after: {os.getloadavg()[0]:.2f}")
        print(f"audit {figures}")
        return
    _load_million(args.entries)
    walk = _verify_in_child(url)
    traced = _verify_in_child(url, traced=True)
    print(
        f"verify {walk['entries']} entries: {walk['seconds']:.1f} s ({walk['entries'] / walk['seconds']:,.0f}/s), "
        f"intact={walk['intact']}; resident memory with Django loaded {walk['base_mb']:.0f} MB, peak "
        f"{walk['peak_mb']:.0f} MB, so the walk adds {walk['peak_mb'] - walk['base_mb']:.0f} MB; "
        f"under tracemalloc ({traced['seconds']:.0f} s) the walk's Python allocations peak at "
        f"{traced['traced_peak_mb']:.1f} MB"
    )
    print(f"machine load after: {os.getloadavg()[0]:.2f}")
    print(
        f"audit {figures} verify_1m_s={walk['seconds']:.1f} "
        f"verify_1m_peak_mb={walk['peak_mb']:.0f} verify_1m_own_mb={walk['peak_mb'] - walk['base_mb']:.0f} "
        f"verify_1m_traced_mb={traced['traced_peak_mb']:.1f}"
    )


if __name__ == "__main__":
    main()
