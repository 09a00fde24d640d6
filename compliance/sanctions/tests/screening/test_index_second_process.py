"""On PostgreSQL: an import in this process reaches the name index of another server process within seconds.

The second process is a real one (its own interpreter, its own index, its own connection to the test database),
screening a name on each line it reads; the import here moves the list's revision, which it polls.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from compliance.sanctions.tests.helpers import import_file

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]

ROOT = Path(__file__).resolve().parents[4]
SCREENER = """
import sys, django
django.setup()
from compliance.sanctions.selectors.screening import screen_name
print("ready", flush=True)
for line in sys.stdin:
    print(len(screen_name(line.strip())), flush=True)
"""


def _environment() -> dict:
    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env["DJANGO_SETTINGS_MODULE"] = "backoffice.settings"
    env["SANCTIONS_INDEX_CHECK_SECONDS"] = "0.5"
    return env


def test_an_import_here_is_screened_by_a_second_process_within_seconds():
    other = subprocess.Popen(
        [sys.executable, "-c", SCREENER],
        cwd=ROOT,
        env=_environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout.readline().strip() == "ready"

        def screen(name: str) -> int:
            other.stdin.write(name + "\n")
            other.stdin.flush()
            return int(other.stdout.readline())

        assert screen("Sipho Bheki Dlamini") == 0  # its index is built now, from an empty list
        import_file("UN", "un-small-v1.xml")
        deadline = time.monotonic() + 10
        found = 0
        while time.monotonic() < deadline and not found:
            found = screen("Sipho Bheki Dlamini")
            time.sleep(0.2)
        assert found == 1
    finally:
        other.stdin.close()
        other.wait(timeout=30)
