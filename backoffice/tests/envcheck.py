"""Starting the project in a fresh process, to see how it refuses a bad environment."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage_check(**overrides) -> subprocess.CompletedProcess:
    """``manage.py check`` in a fresh process with the environment less the test settings, plus ``overrides``."""
    environ = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "ENVIRONMENT", "DEBUG")}
    environ.update(overrides)
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120
    )
