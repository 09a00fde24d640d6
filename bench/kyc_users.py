"""Benchmark of the KYC user list, search and detail on PostgreSQL at scale.

Loads N users with realistic Eswatini names and M ledger rows into a separate
database (default ``bench_kyc``) with ``generate_series`` (seconds per million
rows instead of hours through the ORM), then measures through the real API
(Django test client, JWT auth, serializers, envelope), every figure against a
baseline measured in the same run:

* list page 1 and a deep page, against the same pages without any index on
  ``created_at`` (dropped inside a transaction that is rolled back);
* search for name fragments, against the same requests without the pg_trgm
  indexes (dropped the same way);
* user detail, against the framework floor (a 404 that touches no user row);
* the admin site's user list and search (signed-in session), against the same baselines.

Usage (from the project root)::

    .venv/bin/python bench/kyc_users.py                       # 1,000,000 users, 5,000,000 rows
    .venv/bin/python bench/kyc_users.py --users 200000 --transactions 1000000
    .venv/bin/python bench/kyc_users.py --runs 50             # reuse the loaded data, more samples

The data is reused when the database already holds the requested sizes.
The bench data is synthetic: balances are not derived from the bench ledger.
"""

import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIRST_NAMES = [
    "Sipho",
    "Thabo",
    "Nomvula",
    "Sandile",
    "Zanele",
    "Mandla",
    "Phindile",
    "Bheki",
    "Siphesihle",
    "Mfanzile",
    "Nonhlanhla",
    "Vusi",
    "Thandeka",
    "Lindiwe",
    "Bongani",
    "Nokuthula",
    "Sibusiso",
    "Lungile",
    "Themba",
    "Nomsa",
    "Ayanda",
    "Busisiwe",
    "Gcina",
    "Khanyisile",
    "Lwazi",
    "Mbali",
    "Njabulo",
    "Sakhile",
    "Temalangeni",
    "Wandile",
    "Xolani",
    "Zodwa",
    "Banele",
    "Celiwe",
    "Dumisani",
    "Fikile",
    "Hlengiwe",
    "Jabulani",
    "Kwanele",
    "Londiwe",
    "Mxolisi",
    "Nkosinathi",
    "Ntombi",
    "Phumlani",
    "Samkelo",
    "Sifiso",
    "Tengetile",
    "Vuyisile",
    "Musa",
    "Thulani",
    "John",
    "Mary",
    "Peter",
    "Grace",
    "David",
    "Ruth",
    "Paul",
    "Faith",
    "James",
    "Precious",
]
LAST_NAMES = [
    "Dlamini",
    "Simelane",
    "Nxumalo",
    "Magagula",
    "Hlophe",
    "Kunene",
    "Mamba",
    "Shongwe",
    "Zwane",
    "Motsa",
    "Mkhonta",
    "Vilakati",
    "Nkambule",
    "Masilela",
    "Mabuza",
    "Gamedze",
    "Tsabedze",
    "Msibi",
    "Ndlovu",
    "Dube",
    "Khumalo",
    "Mdluli",
    "Maseko",
    "Fakudze",
    "Ginindza",
    "Hlatshwayo",
    "Khoza",
    "Lukhele",
    "Mahlalela",
    "Malaza",
    "Manana",
    "Matsebula",
    "Mavuso",
    "Mazibuko",
    "Mhlanga",
    "Mkhabela",
    "Mncina",
    "Mngometulu",
    "Mthethwa",
    "Ndzimandze",
    "Nhlabatsi",
    "Nhleko",
    "Nkosi",
    "Sibandze",
    "Sihlongonyane",
    "Sukati",
    "Thwala",
    "Tfwala",
    "Vilane",
    "Xaba",
    "Zikalala",
    "Zulu",
    "Shabangu",
    "Mkhatshwa",
    "Kubheka",
    "Dladla",
    "Bhembe",
    "Mabila",
]
REGIONS = ["Hhohho", "Manzini", "Lubombo", "Shiselweni"]
SEARCH_TERMS = ["dlam", "nxum", "hlatsh", "sihlongo", "tengetile", "magagu", "ndzima", "kwanele", "tsabed", "mngome"]
# Full names as staff type them: "first last", "last first", the last word cut short (kyc.filtersets.search_q).
FULL_NAME_TERMS = [
    f"{FIRST_NAMES[i * 7 % len(FIRST_NAMES)]} {LAST_NAMES[i * 5 % len(LAST_NAMES)][: 4 + i % 3]}"
    if i % 2
    else f"{LAST_NAMES[i * 5 % len(LAST_NAMES)]} {FIRST_NAMES[i * 7 % len(FIRST_NAMES)]}"
    for i in range(10)
]
TRGM_COLUMNS = ["first_name", "last_name", "names", "surname", "phone_number", "email", "id_number"]


def sql_array(values) -> str:
    return "ARRAY[" + ",".join("'" + v.replace("'", "''") + "'" for v in values) + "]"


def ensure_database(base_url: str, name: str) -> str:
    import psycopg2

    parts = urlsplit(base_url)
    admin = psycopg2.connect(urlunsplit(parts._replace(path="/postgres")))
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cur.fetchone() is None:
            cur.execute(f'CREATE DATABASE "{name}"')
    admin.close()
    return urlunsplit(parts._replace(path="/" + name))


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("ENVIRONMENT", "test")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-for-production-use-0123456789")
    os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    os.environ["RATE_LIMIT_STANDARD"] = "100000000/m"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ["DJANGO_SETTINGS_MODULE"] = "backoffice.settings"
    # bulk loads and index builds over millions of rows: no statement timeout (and no client deadline,
    # which COPY could not run under; backoffice.ops.db_deadline)
    os.environ.setdefault("DB_STATEMENT_TIMEOUT", "0")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def step(label: str):
    class _Step:
        def __enter__(self):
            self.t = time.perf_counter()
            print(f"  {label} ...", end="", flush=True)

        def __exit__(self, *exc):
            print(f" {time.perf_counter() - self.t:6.1f} s", flush=True)

    return _Step()


def load(users: int, transactions: int) -> None:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM kyc_platformuser")
        have_users = cur.fetchone()[0]
        cur.execute("SELECT count(*) FROM kyc_transaction")
        have_tx = cur.fetchone()[0]
    if have_users == users and have_tx == transactions:
        print(f"Reusing {users:,} users and {transactions:,} ledger rows already loaded.")
        return
    print(f"Loading {users:,} users and {transactions:,} ledger rows:")
    with connection.cursor() as cur:
        cur.execute("SET maintenance_work_mem = '512MB'")
        cur.execute("SET synchronous_commit = off")
        with step("empty the tables"):
            cur.execute(
                "TRUNCATE kyc_platformuser, kyc_transaction, kyc_kycdocument, kyc_verificationrecord, "
                "kyc_creditrequest, compliance_alert, compliance_sar CASCADE"
            )
        saved = _drop_indexes(cur, ["kyc_platformuser", "kyc_transaction"])
        with step("users (generate_series)"):
            cur.execute("SELECT setseed(0.2026)")
            cur.execute(f"""
                INSERT INTO kyc_platformuser (
                    id, phone_number, email, password, first_name, last_name, names, surname, id_number,
                    date_of_birth, sex, nationality, occupation, region, country, verification_status, risk_rating,
                    current_risk_score, is_potential_pep, balance, nfc_card_number, rewards_points, referral_code,
                    is_verified, is_phone_verified, is_archived, archived_at, last_login, created_at, updated_at,
                    address_line, city, passport_number, passport_country)
                SELECT gen_random_uuid(), '+2687' || lpad(g::text, 7, '0'),
                       lower(f) || '.' || lower(l) || g || '@example.org', '!', f, l, f, upper(l),
                       lpad(((g::bigint * 7919) % 10000000000000)::text, 13, '0'),
                       date '1950-01-01' + (g % 20000), CASE WHEN g % 2 = 0 THEN 'MALE' ELSE 'FEMALE' END,
                       'Swazi', 'Trader', r, 'SZ', v, (ARRAY['LOW','LOW','MEDIUM','HIGH'])[1 + g % 4], g % 101,
                       false, round((random() * 5000)::numeric, 2),
                       CASE WHEN g % 3 = 0 THEN 'NFC-' || g END, g % 500, 'B' || g, v = 'VERIFIED', true,
                       g % 50 = 0, NULL, NULL, ts, ts, '', '', '', ''
                FROM (
                    SELECT g,
                           fn[1 + floor(random() * array_length(fn, 1))::int] AS f,
                           ln[1 + floor(random() * array_length(ln, 1))::int] AS l,
                           rg[1 + g % 4] AS r,
                           (ARRAY['VERIFIED','VERIFIED','PENDING','REJECTED'])[1 + floor(random() * 4)::int] AS v,
                           timestamptz '2023-01-01' + g * (interval '1 second' * (94608000.0 / {users}))
                               + random() * interval '60 seconds' AS ts
                    FROM generate_series(1, {users}) g,
                         (SELECT {sql_array(FIRST_NAMES)} fn, {sql_array(LAST_NAMES)} ln,
                                 {sql_array(REGIONS)} rg) names
                ) s
            """)
        with step("ledger rows (generate_series)"):
            cur.execute(f"""
                INSERT INTO kyc_transaction (
                    id, user_id, type, amount, currency, status, channel, reference, reason, description,
                    country, region, balance_after, created_at)
                SELECT gen_random_uuid(), u.id,
                       (ARRAY['TOP_UP','TRANSFER_IN','TRANSFER_OUT','VENDOR_PAYMENT','WITHDRAWAL','CARD_PAYMENT'])
                           [1 + floor(random() * 6)::int],
                       round((1 + random() * 2000)::numeric, 2), 'SZL', 'COMPLETED',
                       (ARRAY['WALLET','MOBILE_MONEY','CARD','BANK'])[1 + floor(random() * 4)::int],
                       'BENCH-' || g, '', '', 'SZ', '', NULL,
                       u.created_at + random() * interval '400 days'
                FROM generate_series(1, {transactions}) g
                JOIN (SELECT id, created_at, row_number() OVER () AS rn FROM kyc_platformuser) u
                  ON u.rn = 1 + (g % {users})
            """)
        _restore_indexes(cur, saved)
        with step("VACUUM ANALYZE"):
            cur.execute("VACUUM ANALYZE kyc_platformuser")
            cur.execute("VACUUM ANALYZE kyc_transaction")


def _drop_indexes(cur, tables):
    """Secondary indexes are rebuilt after the load: one sort per index beats a million B-tree inserts."""
    cur.execute(
        """SELECT i.indexname, i.indexdef FROM pg_indexes i
           WHERE i.tablename = ANY(%s) AND i.indexname NOT IN (
               SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u'))""",
        [list(tables)],
    )
    saved = cur.fetchall()
    for name, _ in saved:
        cur.execute(f'DROP INDEX "{name}"')
    return saved


def _restore_indexes(cur, saved):
    for name, definition in saved:
        with step(f"index {name}"):
            cur.execute(definition)


def timed(fn, runs: int) -> list[float]:
    fn()  # warm the caches and the plan
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return samples


def p(samples, q):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(runs: int) -> list[tuple]:
    from django.db import connection, transaction
    from rest_framework.test import APIClient

    from backoffice.auth import tokens
    from backoffice.models import Staff

    staff, _ = Staff.objects.get_or_create(email="bench@vikela.local", defaults={"role": "admin"})
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Bearer {tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk).access}"
    )
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM kyc_platformuser WHERE NOT is_archived")
        active = cur.fetchone()[0]
        cur.execute("SELECT id FROM kyc_platformuser ORDER BY created_at LIMIT 1 OFFSET %s", [active // 2])
        some_user = cur.fetchone()[0]
    deep_page = max(1, min(5000, active // 20 // 2))

    def get(url, params=None):
        response = client.get(url, params or {})
        assert response.status_code in (200, 404), (url, response.status_code, response.content[:300])
        return response

    terms = iter(())

    def search():
        nonlocal terms
        term = next(terms, None)
        if term is None:
            terms = iter(SEARCH_TERMS)
            term = next(terms)
        get("/api/v1/admin/users/search", {"q": term})

    full_names = iter(())

    def search_full_name():
        nonlocal full_names
        term = next(full_names, None)
        if term is None:
            full_names = iter(FULL_NAME_TERMS)
            term = next(full_names)
        get("/api/v1/admin/users/search", {"q": term})

    from django.test import Client

    browser = Client()
    browser.force_login(staff)
    admin_terms = iter(())

    def admin_search():
        nonlocal admin_terms
        term = next(admin_terms, None)
        if term is None:
            admin_terms = iter(SEARCH_TERMS)
            term = next(admin_terms)
        response = browser.get("/admin/kyc/platformuser/", {"q": term})
        assert response.status_code == 200, response.status_code

    def admin_list():
        assert browser.get("/admin/kyc/platformuser/").status_code == 200

    # case -> (what the baseline removes, callable)
    cases = {
        "list page 1": ("list", lambda: get("/api/v1/admin/users")),
        f"list page {deep_page}": ("list", lambda: get("/api/v1/admin/users", {"page": deep_page})),
        "search (name fragment)": ("search", search),
        "search (full name)": ("search", search_full_name),
        "user detail": ("floor", lambda: get(f"/api/v1/admin/users/{some_user}")),
        "admin site: user list": ("list", admin_list),
        "admin site: search": ("search", admin_search),
    }
    indexed = {name: timed(fn, runs) for name, (_, fn) in cases.items()}
    baseline = {}
    baseline_runs = max(5, runs // 3)
    floor = timed(lambda: get("/api/v1/admin/users/not-a-uuid"), runs)
    with transaction.atomic():
        with connection.cursor() as cur:
            cur.execute(
                "SELECT indexname FROM pg_indexes WHERE tablename = %s AND indexdef LIKE %s",
                ["kyc_platformuser", "%created_at%"],
            )
            for (name,) in cur.fetchall():
                cur.execute(f'DROP INDEX "{name}"')
        for name, (group, fn) in cases.items():
            if group == "list":
                baseline[name] = timed(fn, baseline_runs)
        transaction.set_rollback(True)
    with transaction.atomic():
        with connection.cursor() as cur:
            for column in [*TRGM_COLUMNS, "search_text"]:  # search_text: all of them at once (0012)
                cur.execute(f"DROP INDEX IF EXISTS kyc_user_trgm_{column}")
        for name, (group, fn) in cases.items():
            if group == "search":
                baseline[name] = timed(fn, baseline_runs)
        transaction.set_rollback(True)
    labels = {"list": "no created_at indexes", "search": "no pg_trgm indexes", "floor": "framework floor (404)"}
    rows = []
    for name, samples in indexed.items():
        group = cases[name][0]
        base = floor if group == "floor" else baseline[name]
        rows.append(
            (
                name,
                p(samples, 0.5),
                p(samples, 0.95),
                labels[group],
                p(base, 0.5),
                p(base, 0.95),
                p(base, 0.95) / p(samples, 0.95),
            )
        )
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--transactions", type=int, default=5_000_000)
    parser.add_argument("--runs", type=int, default=40, help="timed requests per case")
    parser.add_argument("--database", default="bench_kyc")
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    )
    args = parser.parse_args()

    url = ensure_database(args.server, args.database)
    setup_django(url)
    started = time.perf_counter()
    load(args.users, args.transactions)
    print(f"Data ready in {time.perf_counter() - started:.0f} s.\n")
    rows = measure(args.runs)
    print(f"{args.users:,} users, {args.transactions:,} ledger rows, {args.runs} timed requests per case (ms)\n")
    header = f"{'case':<26} {'p50':>8} {'p95':>8}   {'baseline':<24} {'p50':>8} {'p95':>8} {'base/ours p95':>14}"
    print(header)
    print("-" * len(header))
    for name, p50, p95, label, b50, b95, ratio in rows:
        print(f"{name:<26} {p50:8.1f} {p95:8.1f}   {label:<24} {b50:8.1f} {b95:8.1f} {ratio:13.1f}x")
    print("\nTargets: search p95 < 60 ms and >= 20x the unindexed baseline; list p95 < 50 ms.")


if __name__ == "__main__":
    main()
