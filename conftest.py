"""Fixtures every app's tests share: API clients signed in as each staff role, a browser; and what makes the
suite safe to run in parallel processes (pytest-xdist, ``make test``)."""

import os
import uuid
from pathlib import Path

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.tests.clients import bearer_client
from backoffice.tests.dbtemplates import use_templates
from backoffice.tests.factories import StaffFactory
from backoffice.tests.flush import delete_rows_instead_of_truncating

pytest_plugins = [
    "backoffice.tests.binaries",
    "backoffice.tests.brokers",
    "backoffice.tests.browser",
    "backoffice.tests.concurrency",
    "backoffice.tests.demo_data",
    "backoffice.tests.s3",
    "backoffice.tests.webhooks.receiver",
    "verification.tests.engine_memo",
]


def _clear_cache() -> None:
    # Under xdist each worker's keys carry its own prefix (pytest_configure) and only those are deleted: clear()
    # on a Redis cache empties the whole database, the other worker's rate-limit counts in the middle of a test.
    prefix = getattr(cache, "key_prefix", "")
    if prefix and hasattr(cache, "_cache") and hasattr(cache._cache, "get_client"):
        client = cache._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    else:
        cache.clear()


@pytest.fixture(autouse=True)
def _fresh_cache():
    # rate-limit counters live in the cache; one test's requests must not spend another's budget
    _clear_cache()
    yield
    _clear_cache()


@pytest.fixture(scope="session", autouse=True)
def _webhooks_wait_for_the_test():
    # Without a broker, a committed event's deliveries are sent from a thread; in a test that thread would write
    # beside the test's own connection (SQLite's shared in-memory database locks tables under an open transaction).
    # Tests send them themselves (webhook_deliver, webhook_sweep). Session-wide, so it holds before module-wide
    # fixtures too (the API fuzzing module seeds the demo, whose endpoint is sent the demo's events).
    from backoffice.services import webhooks

    webhooks.set_sender(None)
    yield


@pytest.fixture(autouse=True)
def _audit_chain_links_at_append(request):
    """On PostgreSQL the audit chain links an entry inside its transaction's COMMIT (a deferred trigger), and a
    test's transaction is rolled back, never committed: there the trigger is made to run at the end of each
    insert, so tests see the chain they wrote. Tests whose transactions commit (transactional, browser, servers)
    keep the product's timing, and backoffice/tests/audit/test_links_at_commit.py checks it."""
    from django.test import SimpleTestCase

    item = request.node
    cls = getattr(item, "cls", None)
    # Django's own test classes open their transactions themselves (none of them reads the chain)
    if (cls is not None and issubclass(cls, SimpleTestCase)) or LongTestsFirst._group(item) != 0:
        yield
        return
    request.getfixturevalue("db")
    from backoffice.audit_chain import link_pending_now

    link_pending_now()
    yield


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class LongTestsFirst:
    """Start the long tests (browser, slow) first within each group pytest-django runs in turn.

    pytest-django orders a session as Django does, database tests, then transactional ones, then the rest, and
    most browser and server tests are transactional; in collection order a walk of every admin page (minutes on
    two cores) could start last and keep one xdist worker busy while the others had nothing left. Started first
    in its group, the short tests fill the other workers meanwhile. Only the order inside a group changes, so what
    each test finds in its database does not.
    """

    @staticmethod
    def _group(item) -> int:
        # pytest-django's own order (pytest_django.plugin.pytest_collection_modifyitems): 0 db, 1 transactional, 2 none
        from django.test import TestCase, TransactionTestCase

        cls = getattr(item, "cls", None)
        if cls is not None and issubclass(cls, TransactionTestCase):
            return 0 if issubclass(cls, TestCase) else 1
        marker = item.get_closest_marker("django_db")
        fixtures = getattr(item, "fixturenames", ())
        transactional = bool(marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")))
        if transactional or "transactional_db" in fixtures or "live_server" in fixtures:
            return 1
        return 0 if marker or "db" in fixtures else 2

    @pytest.hookimpl(trylast=True)  # after pytest-django has put the groups in order
    def pytest_collection_modifyitems(self, items):
        # imported here, not at the top: a module of pytest_plugins imported before pytest loads it loses its
        # assertion rewriting (PytestAssertRewriteWarning)
        from backoffice.tests.demo_data import uses_demo

        # the tests that read the seeded demo one after the other, so it is seeded once (backoffice.tests.demo_data)
        items.sort(key=lambda item: (self._group(item), not uses_demo(item), not self._long(item)))

    @staticmethod
    def _long(item) -> bool:
        return any(item.get_closest_marker(name) is not None for name in ("browser", "slow"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    from backoffice.tests.demo_data import forget_after  # a plugin module: see LongTestsFirst

    forget_after(item, nextitem)  # after the test's own transaction is rolled back


def pytest_configure(config):
    config.pluginmanager.register(LongTestsFirst(), "vikela-long-tests-first")
    delete_rows_instead_of_truncating()  # a transactional test's flush on PostgreSQL: seconds -> milliseconds
    # Every factory hashes a password, and PBKDF2's deliberate slowness would dominate the suite. Collection
    # hashes too: parametrize lists built at import (the admin-form tests ask each ModelAdmin's permissions of a
    # built StaffFactory per role) ran 309 PBKDF2 hashes, about 110 s in every process that collects (each xdist
    # worker does) before a per-test fixture could apply. So the fast hasher holds from the start of the session.
    from django.conf import settings
    from django.contrib.auth.hashers import get_hashers, get_hashers_by_algorithm

    settings.PASSWORD_HASHERS = FAST_HASHERS
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ... in an xdist worker; unset in a plain run
    if worker and settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        # one Redis database (REDIS_URL) serves every worker: each keeps its keys apart under its own prefix
        settings.CACHES = {**settings.CACHES, "default": {**settings.CACHES["default"], "KEY_PREFIX": worker}}


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Each process's test database is a copy of a migrated template (backoffice/tests/dbtemplates.py)."""
    use_templates()


# ``make test`` runs the suite in two passes: every test in parallel worker processes (pytest-xdist, ``-n auto -m
# "not serial"``), then the ``serial`` ones in one process (``-m serial``). A test is serial when it uses what a worker
# cannot have its own of: the Redis broker database (backoffice.tests.brokers, emptied by each test), PostgreSQL
# databases of fixed names a stack of servers is built on ("ops"), or (outage) servers it stops and freezes while it
# holds the machine to a deadline. They are found here, so a new test of that kind is serial without a mark.
SERIAL = "serial"


def _serial(item) -> bool:
    from backoffice.tests.brokers import BROKER_URL

    module = getattr(item, "module", None)
    return bool(
        item.get_closest_marker("outage")
        or "redis_broker" in getattr(item, "fixturenames", ())
        or (module is not None and any(value is BROKER_URL for value in vars(module).values()))
    )


# The parallel pass of ``make test`` knows, having collected everything, which files hold serial tests; it leaves
# their names here for the serial pass of the same run (VIKELA_TEST_RUN, one value per ``make test``), which then
# imports only those files. Collecting the whole suite costs 8 s a process with warm bytecode caches, 25 s without
# (schemathesis builds its cases at collection), and the serial pass's workers did it again to find 60 tests. A
# run of its own (no VIKELA_TEST_RUN, or another run's list) collects everything, as before.
SERIAL_FILES = Path(__file__).resolve().parent / ".run" / "serial-files"


def _test_run() -> str:
    return os.environ.get("VIKELA_TEST_RUN", "")


def _leave_serial_files(items) -> None:
    files = sorted({item.nodeid.split("::", 1)[0] for item in items if item.get_closest_marker(SERIAL)})
    SERIAL_FILES.parent.mkdir(exist_ok=True)
    # each parallel worker collects the same tests and writes the same list: the last rename wins, whole
    partial = SERIAL_FILES.with_name(f"{SERIAL_FILES.name}.{os.getpid()}")
    partial.write_text("\n".join([_test_run(), *files]) + "\n")
    partial.replace(SERIAL_FILES)


def _serial_files() -> set[str] | None:
    try:
        run, *files = SERIAL_FILES.read_text().splitlines()
    except (FileNotFoundError, ValueError):
        return None
    return set(files) if run == _test_run() else None


def pytest_ignore_collect(collection_path, config):
    if not (_test_run() and config.getoption("markexpr", "") == SERIAL and collection_path.suffix == ".py"):
        return None
    if not hasattr(config, "_vikela_serial_files"):
        config._vikela_serial_files = _serial_files()
    files = config._vikela_serial_files
    if files is None or not collection_path.name.startswith("test_"):
        return None
    return True if str(collection_path.relative_to(config.rootpath)) not in files else None


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        if _serial(item):
            item.add_marker(SERIAL)
    if _test_run() and config.getoption("markexpr", "") == f"not {SERIAL}":
        _leave_serial_files(items)
        if "postgres_only" in getattr(item, "fixturenames", ()):
            # skipped on SQLite; with the mark, `-m postgres` selects the whole PostgreSQL set (README, Tests)
            item.add_marker("postgres")


def pytest_make_parametrize_id(config, val, argname):
    # Each xdist worker collects for itself, and the workers' test ids must be equal: a parameter drawn at import
    # (uuid4(), an unknown id for a 404) is named by its kind, not by its value.
    text = str(val) if isinstance(val, str | uuid.UUID) else ""
    if len(text) == 36 and text.count("-") == 4:
        try:
            uuid.UUID(text)
        except ValueError:
            return None
        return "uuid"
    return None


def pytest_runtest_setup(item):
    # The serial pass itself (-m serial) may run in a few workers, each taking whole files (--dist loadfile): each
    # worker has its own broker database (backoffice.tests.brokers), a file's fixed-name databases stay in one
    # process, and the outage tests mostly wait on deadlines, which two at a time on two cores still meet. Among the
    # parallel pass's many busy workers they would not.
    serial_pass = item.config.getoption("markexpr", "") == SERIAL
    if os.environ.get("PYTEST_XDIST_WORKER") and item.get_closest_marker(SERIAL) and not serial_pass:
        pytest.skip("serial: shares a broker, a database or the machine's time with other tests; run with -m serial")


@pytest.fixture(autouse=True)
def _otp_in_memory(settings):
    from backoffice.auth import otp

    settings.OTP_BACKEND = "locmem"
    otp.outbox.clear()
    yield
    otp.outbox.clear()


@pytest.fixture
def media(settings, tmp_path):
    """Stored files go to a temporary directory for the test."""
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def staff_client(db):
    """staff_client(role) -> (client, staff): an API client with a fresh staff member's token."""

    def make(role: str = StaffRole.ADMIN, **fields):
        staff = StaffFactory(role=role, **fields)
        return bearer_client(tokens.STAFF, staff.pk), staff

    return make


@pytest.fixture
def admin_client_api(staff_client):
    return staff_client(StaffRole.ADMIN)[0]
