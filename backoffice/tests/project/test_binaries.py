"""Tests that need a system program skip, saying which and how to install it; the CI hides tesseract with
``scripts/path-without`` to check that nothing else needs it."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from backoffice.tests.binaries import missing_reason

ROOT = Path(__file__).resolve().parents[3]


def test_a_missing_program_is_named_with_how_to_install_it(monkeypatch):
    missing = {"tesseract", "vikela-nothing"}
    monkeypatch.setattr(shutil, "which", lambda name: None if name in missing else f"/usr/bin/{name}")
    assert missing_reason(["tesseract"]) == "tesseract not found on the PATH (apt-get install tesseract-ocr to run it)"
    assert missing_reason(["sh", "vikela-nothing"]) == "vikela-nothing not found on the PATH"
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    assert missing_reason(["tesseract", "sh"]) is None


@pytest.mark.binary("vikela-no-such-program")
def test_a_test_needing_a_missing_program_is_skipped():
    raise AssertionError("the binary marker should have skipped this test")


def test_path_without_hides_only_the_programs_named(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    result = subprocess.run(
        [ROOT / "scripts" / "path-without", "sh"], env=env, capture_output=True, text=True, check=True
    )
    links = result.stdout.strip()
    assert links.startswith(str(tmp_path))
    found = {name: shutil.which(name, path=links) for name in ("sh", "env", "ls")}
    assert found["sh"] is None and found["env"] and found["ls"]
    assert os.path.realpath(found["env"]) == os.path.realpath(shutil.which("env"))
