"""The demo data set seeded once for a run of tests that read it, instead of once per test.

Seeding the demo (``seed_demo``: every app's part) costs 20-30 s, more than the checks of any test that reads it,
and about ten tests read it. ``demo_data`` seeds it outside any test's transaction the first time a test asks for
it (its files in a directory of their own), and each test then runs in its own transaction on top of it: what a
test writes is rolled back as usual, the demo stays.

``conftest.py`` runs the tests that ask for it one after the other, and after the last of such a run
``forget_after`` ends the fixture, which flushes the database: a test that does not ask for the demo never sees
it. A transactional test (a live server, a browser) cannot share it, since the flush after such a test would empty
the database under the next one; those seed their own.
"""

import io

import pytest
from django.core.management import call_command
from django.test import override_settings

SEEDED = "_demo_database"


@pytest.fixture(scope="session")
def _demo_database(django_db_setup, django_db_blocker, tmp_path_factory):
    # session-scoped so that it is set up before the test's own transaction begins (a function-scoped fixture
    # would seed inside it, and the seed would be rolled back with the test); ended early by ``forget_after``
    media = tmp_path_factory.mktemp("demo-media")
    with override_settings(MEDIA_ROOT=str(media)), django_db_blocker.unblock():
        call_command("seed_demo", stdout=io.StringIO())
    try:
        yield media
    finally:
        with django_db_blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def demo_data(_demo_database, settings, db):
    """The whole demo in the database (seeded once, see the module); its files are under ``MEDIA_ROOT``."""
    settings.MEDIA_ROOT = str(_demo_database)
    return _demo_database


def uses_demo(item) -> bool:
    return SEEDED in getattr(item, "fixturenames", ())


def forget_after(item, nextitem) -> None:
    """After the last test of a run that read the demo, end its fixture (the flush): the next test does not ask
    for it, and a later one that does seeds it again."""
    if not uses_demo(item) or (nextitem is not None and uses_demo(nextitem)):
        return
    for fixturedef in item._fixtureinfo.name2fixturedefs.get(SEEDED, ()):
        fixturedef.finish(item._request)
