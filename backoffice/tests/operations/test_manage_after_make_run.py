"""The documented management commands work in a checkout where ``make run`` has run, with no variable set.

``make run`` keeps its random SECRET_KEY in ``.secret_key`` and passes it to the server only; ``manage.py``
reads the same file when the environment gives no key, and the environment's key always wins.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SHOW_KEY = "from django.conf import settings; print(settings.SECRET_KEY)"


def checkout_after_make_run(tmp_path: Path, key: str) -> Path:
    """A checkout's manage.py beside the ``.secret_key`` that ``make run`` made (the apps from this one)."""
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    (tmp_path / ".secret_key").write_text(key + "\n")
    return tmp_path


def run_manage(checkout: Path, tmp_path: Path, **extra: str) -> subprocess.CompletedProcess:
    # the environment of a new user's shell: none of the variables make run or the tests set
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "ENVIRONMENT", "DEBUG")}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", **extra)
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SHOW_KEY],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_command_uses_the_key_make_run_keeps(tmp_path):
    key = "k" * 10 + "made-by-make-run-for-this-checkout-0123456789"
    done = run_manage(checkout_after_make_run(tmp_path, key), tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == key


def test_the_environments_key_wins_over_the_file(tmp_path):
    checkout = checkout_after_make_run(tmp_path, "from-the-file-" + "f" * 40)
    given = "from-the-environment-" + "e" * 40
    done = run_manage(checkout, tmp_path, SECRET_KEY=given)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == given


def test_without_the_file_or_a_key_production_still_refuses_to_start(tmp_path):
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    done = run_manage(tmp_path, tmp_path)
    assert done.returncode != 0 and "SECRET_KEY must be set" in done.stderr
