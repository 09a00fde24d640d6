"""The serial pass of ``make test`` imports only the files the parallel pass of the same run found serial tests in
(conftest.py): another run's list, or none, means collecting everything."""

from pathlib import Path
from types import SimpleNamespace

import pytest

import conftest

ROOT = Path(conftest.__file__).resolve().parent


class _Config(SimpleNamespace):
    def getoption(self, name, default=None):
        return self.markexpr if name == "markexpr" else default


def _item(nodeid: str, serial: bool):
    return SimpleNamespace(
        nodeid=nodeid, get_closest_marker=lambda name: object() if serial and name == "serial" else None
    )


@pytest.fixture
def listed(tmp_path, monkeypatch):
    monkeypatch.setattr(conftest, "SERIAL_FILES", tmp_path / "serial-files")
    monkeypatch.setenv("VIKELA_TEST_RUN", "run-1")
    conftest._leave_serial_files(
        [
            _item("backoffice/tests/operations/test_beat.py::test_one", True),
            _item("backoffice/tests/operations/test_beat.py::test_two", True),
            _item("kyc/tests/ledger/test_credit.py::test_three", False),
        ]
    )


def _ignored(path: str, markexpr: str = "serial") -> bool:
    return bool(conftest.pytest_ignore_collect(ROOT / path, _Config(markexpr=markexpr, rootpath=ROOT)))


def test_the_serial_pass_imports_only_the_listed_files(listed):
    assert not _ignored("backoffice/tests/operations/test_beat.py")
    assert _ignored("kyc/tests/ledger/test_credit.py")
    assert not _ignored("backoffice/tests/conftest_helpers.py")  # not a test module: left to pytest


def test_another_run_or_another_pass_collects_everything(listed, monkeypatch):
    assert not _ignored("kyc/tests/ledger/test_credit.py", markexpr="not serial")
    monkeypatch.setenv("VIKELA_TEST_RUN", "run-2")
    assert not _ignored("kyc/tests/ledger/test_credit.py")
    monkeypatch.delenv("VIKELA_TEST_RUN")
    assert not _ignored("kyc/tests/ledger/test_credit.py")
