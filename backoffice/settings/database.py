"""The database: one URL, SQLite set up for concurrent writers, PostgreSQL with persistent connections and deadlines."""

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_int, env_str
from backoffice.settings.base import BASE_DIR, ENVIRONMENT

# Seconds PostgreSQL spends on one statement, and waiting for one lock, before it cancels it (then 503):
# a request stuck behind a migration's lock or a runaway query answers in seconds. 0: no limit (for a
# migration of a large table or a bulk load). The client keeps a deadline of its own for a server too
# frozen to cancel anything (backoffice.ops.db_deadline): the statement timeout plus the connect timeout.
DB_STATEMENT_TIMEOUT = env_int("DB_STATEMENT_TIMEOUT", 15, minimum=0, maximum=86400)
DB_LOCK_TIMEOUT = env_int("DB_LOCK_TIMEOUT", 5, minimum=0, maximum=86400)
DB_CONNECT_TIMEOUT = env_int("DB_CONNECT_TIMEOUT", 5, minimum=1, maximum=60)
# Seconds for what a live server answers at once: the check of a reused connection (backoffice.ops.postgresql)
# and the whole database part of readiness, connecting included (a load balancer must hear within seconds).
DB_HEALTH_CHECK_SECONDS = env_int("DB_HEALTH_CHECK_SECONDS", 2, minimum=1, maximum=60)

POSTGRES_ENGINE = "backoffice.ops.postgresql"
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
# Persistent connections serve production; in tests the live server's request threads would
# keep theirs open past the test and block dropping the test database.
_conn_max_age = env_int("DB_CONN_MAX_AGE", 0 if ENVIRONMENT == "test" else 60, minimum=0)
try:
    _db = dj_database_url.parse(DATABASE_URL, conn_max_age=_conn_max_age)
except Exception as exc:  # dj_database_url raises several types for a bad URL
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from None
if _db["ENGINE"] not in {"django.db.backends.sqlite3", "django.db.backends.postgresql"}:
    raise ImproperlyConfigured("DATABASE_URL must be a sqlite:// or postgres:// URL")
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside a writer; IMMEDIATE takes the write lock at
    # BEGIN so two writers queue on the busy timeout instead of failing with
    # "database is locked" half-way through a transaction. Connections persist as PostgreSQL's do: opening one
    # (the file, its PRAGMAs) was an eighth of a payment's time under load; between requests it holds no
    # transaction, so it keeps no WAL checkpoint waiting.
    _db["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
    }
    _db.setdefault("TEST", {})["NAME"] = None
else:
    # A persistent connection is checked before a request reuses it, so the first request after a
    # database restart reconnects instead of failing on the dead socket; a database that does not
    # answer costs a request DB_CONNECT_TIMEOUT seconds (then 503), not the operating system's minutes.
    _db["CONN_HEALTH_CHECKS"] = True
    _db["ENGINE"] = POSTGRES_ENGINE  # Django's, its connection check under DB_HEALTH_CHECK_SECONDS
    options = _db.setdefault("OPTIONS", {})
    options["connect_timeout"] = DB_CONNECT_TIMEOUT
    # server settings of every session, after any the URL gives (?options=...), so ours are the ones in force
    timeouts = f"-c statement_timeout={DB_STATEMENT_TIMEOUT * 1000} -c lock_timeout={DB_LOCK_TIMEOUT * 1000}"
    options["options"] = f"{options.get('options', '')} {timeouts}".strip()
DATABASES = {"default": _db}
IS_POSTGRES = _db["ENGINE"] == POSTGRES_ENGINE
# the client's own deadline on any reply (backoffice.ops.db_deadline); None: libpq waits as long as it takes
DB_ANSWER_DEADLINE = DB_STATEMENT_TIMEOUT + DB_CONNECT_TIMEOUT if IS_POSTGRES and DB_STATEMENT_TIMEOUT else None

# A streaming replica of the primary: GET requests under /api/ read from it (backoffice.ops.dbrouter), everything
# else uses the primary. The same user and schema as the primary; migrations run on the primary only.
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL")
# After a principal writes, their reads stay on the primary this long (seconds): longer than the replica lags.
DATABASE_REPLICA_PIN_SECONDS = env_int("DATABASE_REPLICA_PIN_SECONDS", 10, minimum=0, maximum=3600)
if DATABASE_REPLICA_URL:
    if not IS_POSTGRES:
        raise ImproperlyConfigured("DATABASE_REPLICA_URL needs DATABASE_URL to be PostgreSQL")
    try:
        _replica = dj_database_url.parse(DATABASE_REPLICA_URL, conn_max_age=_conn_max_age)
    except Exception as exc:
        raise ImproperlyConfigured(f"DATABASE_REPLICA_URL is not a valid database URL: {exc}") from None
    if _replica["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_REPLICA_URL must be a postgres:// URL")
    _replica["CONN_HEALTH_CHECKS"] = True
    _replica["ENGINE"] = POSTGRES_ENGINE
    # the primary's deadlines on the replica too: a frozen replica answers 503 as a frozen primary does
    replica_options = _replica.setdefault("OPTIONS", {})
    replica_options["connect_timeout"] = _db["OPTIONS"]["connect_timeout"]
    replica_options["options"] = f"{replica_options.get('options', '')} {timeouts}".strip()
    # tests read the primary through this alias: one test database, not a second that nothing fills
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES["replica"] = _replica
    DATABASE_ROUTERS = ["backoffice.ops.dbrouter.ReplicaRouter"]
