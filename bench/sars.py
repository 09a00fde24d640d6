"""Benchmark: the SAR list with 100,000 SARs, against a naive ORM listing measured in the same run.

    .venv/bin/python bench/sars.py            # creates and fills PostgreSQL database bench_sar once
    .venv/bin/python bench/sars.py --reset    # drop and refill it
    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/sars.py

Rows of the table:
  endpoint  GET /api/v1/admin/aml/sars through Django's whole stack (middleware, JWT auth,
            rate limiting, role check, selector, serializer, JSON), via the test client;
  ours      the selector + output serializer alone (what the view does);
  naive     the same page the way a first draft would do it: a plain queryset and a
            serializer that walks entity_user and filed_by per row (N+1 queries).
The target: endpoint p95 under 50 ms.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bench_sar"


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
    os.environ["RATE_LIMIT_STANDARD"] = "100000000/m"
    os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")
    # bulk loads and index builds over millions of rows: no statement timeout (and no client deadline,
    # which COPY could not run under; backoffice.ops.db_deadline)
    os.environ.setdefault("DB_STATEMENT_TIMEOUT", "0")
    import django

    django.setup()


def _load(count: int) -> None:
    """Bulk-insert staff, subjects and ``count`` SARs spread over a year, in every state, with four eyes kept."""
    import datetime as dt
    import random
    from decimal import Decimal

    from django.db import connection, transaction

    from backoffice.choices import StaffRole
    from backoffice.models import Staff
    from compliance.sars.choices import ActivityType, SARStatus
    from compliance.sars.models.sar import SAR
    from kyc.models import PlatformUser

    existing = SAR.objects.count()
    if existing >= count:
        print(f"bench_sar already holds {existing} SARs; loading skipped")
        return
    rng = random.Random(20261121)
    started = time.perf_counter()
    with transaction.atomic():
        staff = [
            Staff.objects.get_or_create(
                email=f"bench-{role}-{n}@bench.local",
                defaults={"role": role, "password": "!", "first_name": f"Bench{n}", "last_name": role.title()},
            )[0]
            for n, role in enumerate(
                [StaffRole.COMPLIANCE_OFFICER, StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.MLRO]
            )
        ]
        officers, mlros = staff[:2], staff[2:]
        if not PlatformUser.objects.filter(phone_number__startswith="+268799").exists():
            PlatformUser.objects.bulk_create(
                [
                    PlatformUser(
                        phone_number=f"+268799{n:05d}",
                        first_name=f"Subject{n}",
                        last_name="Bench",
                        email=f"subject{n}@bench.local",
                        referral_code=f"BENCH{n:05d}",
                        password="!",
                    )
                    for n in range(10_000)
                ],
                batch_size=5000,
            )
        users = list(PlatformUser.objects.filter(phone_number__startswith="+268799").values_list("id", flat=True))
        states = SARStatus.values
        kinds = ActivityType.values
        start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
        created_at = SAR._meta.get_field("created_at")
        drafted_at = SAR._meta.get_field("drafted_at")
        # spread the timestamps over a year, as real data would be, instead of "now" for every row
        created_at.auto_now_add = drafted_at.auto_now_add = False
        try:
            batch = []
            for n in range(existing, count):
                state = states[n % len(states)]
                filer, reviewer = officers[n % 2], officers[(n + 1) % 2]
                when = start + dt.timedelta(seconds=n * 300 + rng.randint(0, 299))
                reviewed = state not in (SARStatus.DRAFT, SARStatus.PENDING_REVIEW)
                approved = reviewed and state != SARStatus.PENDING_APPROVAL
                batch.append(
                    SAR(
                        sar_id=f"SAR-{int(when.timestamp() * 1000)}-B{n:07d}",
                        status=state,
                        entity_user_id=users[rng.randrange(len(users))],
                        suspicious_activity_type=kinds[n % len(kinds)],
                        activity_description=f"Benchmark report {n}: repeated deposits just below the threshold.",
                        date_of_suspicious_activity=(when - dt.timedelta(days=3)).date(),
                        amount_involved=Decimal(rng.randint(0, 50_000_000)) / 100,
                        filed_by=filer,
                        reviewed_by=reviewer if reviewed else None,
                        reviewed_at=when if reviewed else None,
                        approved_by=mlros[n % 2] if approved else None,
                        approved_at=when if approved else None,
                        submitted_at=when if approved else None,
                        drafted_at=when,
                        created_at=when,
                    )
                )
                if len(batch) == 10_000:
                    SAR.objects.bulk_create(batch)
                    batch = []
            if batch:
                SAR.objects.bulk_create(batch)
        finally:
            created_at.auto_now_add = drafted_at.auto_now_add = True
    with connection.cursor() as cursor:
        # what autovacuum would have done by the time a real table held this many rows
        cursor.execute("VACUUM ANALYZE")
    print(f"loaded {count - existing} SARs in {time.perf_counter() - started:.1f} s")


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * len(ordered))) - 1)]
    return statistics.median(ordered), p95


def _time(fn, repeat: int) -> tuple[float, float]:
    for _ in range(3):  # warm caches and connections
        fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return _percentiles(samples)


def _naive_page(params: dict) -> list[dict]:
    """A first draft: no select_related, a serializer that follows both foreign keys per row."""
    from rest_framework import serializers

    from backoffice.lists.paging import MAX_LIMIT
    from compliance.sars.models.sar import SAR

    class NaiveSARSerializer(serializers.ModelSerializer):
        entityUser = serializers.SerializerMethodField()
        filedBy = serializers.SerializerMethodField()

        class Meta:
            model = SAR
            fields = [
                "id",
                "sar_id",
                "status",
                "suspicious_activity_type",
                "activity_description",
                "date_of_suspicious_activity",
                "amount_involved",
                "entityUser",
                "filedBy",
                "created_at",
                "drafted_at",
            ]

        def get_entityUser(self, obj):
            u = obj.entity_user
            return {
                "id": str(u.id),
                "firstName": u.first_name,
                "lastName": u.last_name,
                "email": u.email,
                "phoneNumber": u.phone_number,
            }

        def get_filedBy(self, obj):
            s = obj.filed_by
            return {"id": str(s.id), "firstName": s.first_name, "lastName": s.last_name, "email": s.email}

    page, limit = int(params.get("page", 1)), min(int(params.get("limit", 20)), MAX_LIMIT)
    queryset = SAR.objects.all()
    if "status" in params:
        queryset = queryset.filter(status=params["status"])
    order = {"amountInvolved": "amount_involved"}.get(params.get("sortBy"), "created_at")
    queryset = queryset.order_by(("" if params.get("sortOrder") == "asc" else "-") + order)
    total = queryset.count()
    rows = queryset[(page - 1) * limit : page * limit]
    return {"sars": NaiveSARSerializer(rows, many=True).data, "total": total}


def _our_page(params: dict) -> dict:
    from django.http import QueryDict

    from backoffice.lists.paging import estimated_count, page_of
    from compliance.sars.api.serializers.sar import SARListItemOut
    from compliance.sars.filtersets import SARFilterSet
    from compliance.sars.selectors.sar import sar_list

    query = QueryDict(mutable=True)
    query.update(params)
    page, limit = int(params.get("page", 1)), min(int(params.get("limit", 20)), 100)
    queryset = SARFilterSet(data=query, queryset=sar_list()).qs
    total = estimated_count(queryset)
    rows = page_of(queryset, offset=(page - 1) * limit, limit=limit)
    return {"sars": SARListItemOut(rows, many=True).data, "total": total}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sars", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=200, help="timed requests per scenario for our list")
    parser.add_argument("--naive-repeat", type=int, default=60)
    parser.add_argument("--reset", action="store_true", help="drop and refill the benchmark database")
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    _ensure_database(url, args.reset)
    _setup_django(url)

    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from backoffice.auth import tokens
    from backoffice.models import Staff
    from compliance.sars.models.sar import SAR

    call_command("migrate", verbosity=0)
    _load(args.sars)
    total = SAR.objects.count()
    reader = Staff.objects.filter(email__startswith="bench-compliance_officer").first()
    token = tokens.issue_pair(kind=tokens.STAFF, principal_id=reader.pk).access
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")

    scenarios = [
        ("page 1, limit 20 (default)", {}),
        ("page 1, limit 100", {"limit": "100"}),
        ("status=PENDING_REVIEW", {"status": "PENDING_REVIEW"}),
        ("sortBy=amountInvolved asc", {"sortBy": "amountInvolved", "sortOrder": "asc"}),
        ("page 50, limit 20", {"page": "50"}),
    ]
    print(
        f"\nSAR list benchmark: {total:,} SARs in PostgreSQL ({connection.settings_dict['NAME']}), "
        f"{args.repeat} timed runs per row (naive: {args.naive_repeat})\n"
    )
    header = (
        f"{'scenario':<28} {'endpoint p50':>12} {'p95':>7} {'ours p50':>9} {'p95':>7} "
        f"{'naive p50':>10} {'p95':>7} {'queries':>9} {'naive/ours':>10}"
    )
    print(header)
    print("-" * len(header))
    worst_endpoint_p95 = 0.0
    for label, params in scenarios:
        response = client.get("/api/v1/admin/aml/sars", params)
        assert response.status_code == 200, response.content[:300]
        endpoint = _time(lambda p=params: client.get("/api/v1/admin/aml/sars", p), args.repeat)
        ours = _time(lambda p=params: _our_page(p), args.repeat)
        naive = _time(lambda p=params: _naive_page(p), args.naive_repeat)
        # the in-process rows are the endpoint's rows (serializer data holds Decimals and UUIDs, JSON strings)
        assert [str(r["id"]) for r in _our_page(params)["sars"]] == [r["id"] for r in response.json()["data"]["sars"]]
        reset_queries()  # a full query log (9,000 entries) would make every capture look empty
        with CaptureQueriesContext(connection) as capture:
            _our_page(params)
        ours_queries = len(capture)  # read now: the capture is a view on the log that reset_queries empties
        reset_queries()
        with CaptureQueriesContext(connection) as capture:
            _naive_page(params)
        naive_queries = len(capture)
        reset_queries()
        worst_endpoint_p95 = max(worst_endpoint_p95, endpoint[1])
        print(
            f"{label:<28} {endpoint[0]:>10.1f}ms {endpoint[1]:>5.1f}ms {ours[0]:>7.1f}ms {ours[1]:>5.1f}ms "
            f"{naive[0]:>8.1f}ms {naive[1]:>5.1f}ms {ours_queries:>4}/{naive_queries:<4} "
            f"{naive[1] / ours[1]:>9.1f}x"
        )
    print(
        "\nendpoint: full HTTP stack; ours: selector + shared paging (exact count up to 10,000 rows, the"
        "\nplanner's estimate beyond) + serializer; naive: plain queryset, COUNT(*) and per-row foreign keys;"
        "\nqueries: per page, ours / naive."
    )
    verdict = "meets" if worst_endpoint_p95 < 50 else "MISSES"
    print(f"\nworst endpoint p95: {worst_endpoint_p95:.1f} ms: {verdict} the 50 ms target")


if __name__ == "__main__":
    main()
