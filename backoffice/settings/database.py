"""The database: one URL, SQLite set up for concurrent writers, PostgreSQL with persistent connections."""

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_int, env_str
from backoffice.settings.base import BASE_DIR, ENVIRONMENT

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
    # "database is locked" half-way through a transaction.
    _db["CONN_MAX_AGE"] = 0
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
    _db.setdefault("OPTIONS", {})["connect_timeout"] = env_int("DB_CONNECT_TIMEOUT", 5, minimum=1, maximum=60)
DATABASES = {"default": _db}
IS_POSTGRES = _db["ENGINE"] == "django.db.backends.postgresql"

# A streaming replica of the primary: GET requests under /api/ read from it (backoffice.dbrouter), everything
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
    _replica.setdefault("OPTIONS", {})["connect_timeout"] = _db["OPTIONS"]["connect_timeout"]
    # tests read the primary through this alias: one test database, not a second that nothing fills
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES["replica"] = _replica
    DATABASE_ROUTERS = ["backoffice.dbrouter.ReplicaRouter"]
