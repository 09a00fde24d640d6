"""Every server process keeps its own in-memory index of the PEPs: a PEP added in one process is found by a
screen in another within seconds (the other process sees the list's version change and rebuilds), on
PostgreSQL, with committed data and a second interpreter."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from backoffice.tests.concurrency import postgres_only  # noqa: F401  (fixture)
from compliance.peps.services.pep import pep_create

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]
ROOT = Path(__file__).resolve().parents[4]

SECOND_PROCESS = """
import os, sys, time
import django
django.setup()
from compliance.peps.selectors.pep import pep_screen
name = sys.argv[1]
print("empty" if not pep_screen(name=name) else "found early", flush=True)
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    if pep_screen(name=name):
        print("found", flush=True)
        break
    time.sleep(0.05)
else:
    print("never found", flush=True)
"""


def test_a_pep_added_in_one_process_is_found_in_another_within_seconds():
    settings = connection.settings_dict
    database_url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "backoffice.settings",
           "PEP_INDEX_CHECK_SECONDS": "1"}  # fmt: skip
    second = subprocess.Popen(
        [sys.executable, "-c", SECOND_PROCESS, "Nomvula Fenamuga"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert second.stdout.readline().strip() == "empty"  # its index is built, without the PEP
        pep_create(actor=None, name="Fenamuga, Nomvula")  # committed: this test runs outside a transaction
        added = time.monotonic()
        assert second.stdout.readline().strip() == "found"
        # the period is 1 s; the rest is the rebuild and a loaded machine
        assert time.monotonic() - added < 15
    finally:
        second.kill()
        second.wait()
