"""Migrated PostgreSQL databases for the tests that start real servers, cloned from a template migrated once.

A stack of servers needs a database of its own with every migration applied. Running ``manage.py migrate`` for each
took 20-40 seconds of the serial pass apiece; ``CREATE DATABASE ... TEMPLATE`` copies a migrated one in about a
second. The template is named by a digest of every migration file in the checkout and of the installed packages'
versions (their migrations come with them), so a changed or added migration builds a new one, and it is kept between
runs (the second ``make test`` on the same machine, CI's PostgreSQL pass, finds it). It is built under a temporary
name and renamed when complete: an interrupted build never leaves a half-migrated template behind.
"""

import functools
import hashlib
import importlib.metadata
import os
import re
import subprocess
from collections.abc import Iterator
from contextlib import closing, contextmanager

import psycopg2
from psycopg2 import sql

from backoffice.tests.servers import ROOT, app_env, manage

PG = "postgres://postgres@127.0.0.1:5432/"
PREFIX = "vikela_tpl_"


@functools.cache
def migrations_digest() -> str:
    """What a migrated database depends on: every migration file of the checkout and the installed packages."""
    sha = hashlib.sha256()
    tops = [top for top in ROOT.iterdir() if top.is_dir() and not top.name.startswith((".", "node_modules"))]
    for path in sorted(path for top in tops for path in top.glob("**/migrations/*.py")):
        sha.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    packages = sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions())
    sha.update("\n".join(packages).encode())
    return sha.hexdigest()[:16]


@contextmanager
def _admin(server: str = PG) -> Iterator:
    with closing(psycopg2.connect(server + "postgres", connect_timeout=5)) as connection:
        connection.autocommit = True  # CREATE/DROP/ALTER DATABASE cannot run inside a transaction
        with connection.cursor() as cursor:
            yield cursor


def _building_elsewhere(database: str) -> bool:
    """Whether ``database`` is a template being built by a live process other than this one (``..._b<pid>``)."""
    build = re.fullmatch(rf"{PREFIX}[0-9a-f]+_b(\d{{1,9}})", database)
    if build is None or int(build.group(1)) == os.getpid():
        return False
    try:
        os.kill(int(build.group(1)), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _template() -> str:
    return template_on(PG)


def template_on(server: str) -> str:
    """The migrated template on the PostgreSQL ``server`` (a URL ending in ``/``), built there if missing."""
    name = PREFIX + migrations_digest()
    with _admin(server) as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [PREFIX + "%"])
        existing = {row[0] for row in cursor.fetchall()}
        if name in existing:
            return name
        for old in existing:  # templates of other migrations, and builds that were cut off
            if _building_elsewhere(old):
                continue  # another test run on this machine is migrating it now: dropping it would fail that run
            cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(old)))
        building = f"{name}_b{os.getpid()}"
        cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(building)))
    try:
        manage(app_env(DATABASE_URL=server + building, REDIS_URL="redis://127.0.0.1:6379/15"), "migrate", "--noinput")
        with _admin(server) as cursor:
            cursor.execute(
                sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(building), sql.Identifier(name))
            )
    except (subprocess.CalledProcessError, psycopg2.Error):
        with _admin(server) as cursor:
            cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(building)))
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            if cursor.fetchone():
                return name  # another run built the same template first (the rename found its name taken)
        raise
    return name


def migrated_database(name: str) -> str:
    """Drop ``name`` if it is there and make it again as a migrated copy; returns its URL."""
    template = _template()
    with _admin() as cursor:
        cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        cursor.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template)))
    return PG + name


def drop_database(name: str) -> None:
    with _admin() as cursor:
        cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
