"""Each test process's database made from a migrated template instead of running every migration again.

pytest-django creates one test database per process (each xdist worker of both passes) and runs every migration
into it: 15-20 seconds of CPU on SQLite, more on PostgreSQL, five to seven times per ``make test``, all at the start
when the workers compete for the same cores. The migrations' result depends only on the migration files and the
installed packages (``pgtemplate.migrations_digest``), so it is made once and copied:

* PostgreSQL: ``TEST["TEMPLATE"]`` names the template ``pgtemplate`` keeps for the server tests (on the server of
  ``DATABASE_URL``), and Django creates the test database with ``CREATE DATABASE ... TEMPLATE``.
* SQLite: a migrated database file, built once per digest under ``.run/test-templates`` (one process builds, the
  others wait for it), is copied into the process's shared in-memory test database with SQLite's backup API.

Django's ``migrate`` still runs on the copy and finds nothing to apply, so a migration the template lacks (it cannot,
by the digest) would still be applied, and post-migrate work (content types, permissions) runs as before. Where no
template can be made (no right to create databases, a read-only checkout) the test database is migrated as it was.
"""

import fcntl
import logging
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

from backoffice.tests import pgtemplate
from backoffice.tests.servers import ROOT

logger = logging.getLogger(__name__)

SQLITE_TEMPLATES = ROOT / ".run" / "test-templates"
# the in-memory test database lives while a connection holds it: these keep the copies from the first moment
_holders: list[sqlite3.Connection] = []


def use_templates() -> None:
    """Point each configured database's test copy at a migrated template (``django_db_modify_db_settings``)."""
    from django.db import connections

    for alias in connections:
        connection = connections[alias]
        database = connection.settings_dict
        try:
            # by vendor, not ENGINE: the PostgreSQL engine is our own subclass (backoffice.ops.postgresql)
            if connection.vendor == "postgresql" and not database["TEST"].get("TEMPLATE"):
                database["TEST"]["TEMPLATE"] = _postgres_template(database)
            elif connection.vendor == "sqlite":
                _copy_sqlite_template_into_memory_databases(_sqlite_template())
        except Exception:
            logger.exception("no migrated template for the %s test database; it is migrated instead", alias)


def _postgres_template(database: dict) -> str:
    host, port = database.get("HOST") or "localhost", database.get("PORT") or "5432"
    # quoted: a password may hold the characters that delimit a URL (@, :, /)
    user, password = quote(database.get("USER") or "", safe=""), quote(database.get("PASSWORD") or "", safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    return pgtemplate.template_on(f"postgres://{credentials}{host}:{port}/")


def _sqlite_template() -> Path:
    SQLITE_TEMPLATES.mkdir(parents=True, exist_ok=True)
    template = SQLITE_TEMPLATES / f"sqlite-{pgtemplate.migrations_digest()}.sqlite3"
    with open(SQLITE_TEMPLATES / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one process builds, the others wait and then find it
        if not template.exists():
            for old in SQLITE_TEMPLATES.glob("sqlite-*.sqlite3*"):
                old.unlink(missing_ok=True)  # other migrations' templates
            building = template.with_suffix(f".b{os.getpid()}")
            environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
            environment["DATABASE_URL"] = f"sqlite:///{building}"
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                cwd=ROOT,
                env=environment,
                check=True,
                capture_output=True,
            )
            os.replace(building, template)  # complete or absent: an interrupted build leaves no template
    return template


def _copy_sqlite_template_into_memory_databases(template: Path) -> None:
    from django.db.backends.sqlite3.creation import DatabaseCreation

    if getattr(DatabaseCreation, "_vikela_template", None) is not None:
        return
    create = DatabaseCreation._create_test_db

    def _create_test_db(self, verbosity, autoclobber, keepdb=False):
        name = create(self, verbosity, autoclobber, keepdb)
        if self.is_in_memory_db(name) and not keepdb:
            holder = sqlite3.connect(name, uri=True, check_same_thread=False)
            with closing(sqlite3.connect(template)) as source:
                source.backup(holder)
            _holders.append(holder)
        return name

    DatabaseCreation._create_test_db = _create_test_db
    DatabaseCreation._vikela_template = template
