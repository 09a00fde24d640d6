"""SQLite is set up for concurrent writers: parallel writes queue, none fails with "database is locked"."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="checks the SQLite set-up; PostgreSQL runs skip it")
@pytest.mark.slow
def test_eighty_parallel_ledger_writes_on_one_sqlite_file(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "ENVIRONMENT": "test"}
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, str(ROOT / "kyc/tests/scripts/sqlite_writers.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines()[0] == "errors=0 balance=100.00 rows=80", result.stdout
