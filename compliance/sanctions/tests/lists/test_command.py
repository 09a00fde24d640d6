"""``import_sanctions``: the API's counts on stdout, --dry-run writing nothing, errors naming the problem."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from compliance.sanctions.models import SanctionsEntry, SanctionsList
from compliance.sanctions.tests.helpers import FILES

pytestmark = pytest.mark.django_db


def _run(*args) -> dict:
    out = io.StringIO()
    call_command("import_sanctions", *args, stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def test_import_prints_the_counts_and_a_second_version_its_delta():
    first = _run("--list", "UN", str(FILES / "un-small-v1.xml"))
    assert first["list"] == "UN" and first["added"] == 6 and first["screening"]["usersScanned"] == 0
    second = _run("--list", "UN", str(FILES / "un-small-v2.xml"))
    assert (second["added"], second["removed"], second["changed"], second["unchanged"]) == (1, 1, 1, 4)


def test_dry_run_writes_nothing():
    counts = _run("--list", "UN", str(FILES / "un-small-v1.xml"), "--dry-run")
    assert counts["added"] == 6 and counts["dryRun"] is True
    assert not SanctionsList.objects.exists()


def test_ofac_with_alt_and_add():
    counts = _run(
        "--list", "OFAC", str(FILES / "ofac-small-sdn.csv"),
        "--alt", str(FILES / "ofac-small-alt.csv"), "--add", str(FILES / "ofac-small-add.csv"),
    )  # fmt: skip
    assert counts["entries"] == 4
    assert SanctionsEntry.objects.get(reference="101").details["addresses"] == ["Plot 5, Manzini, Eswatini"]


def test_an_ftm_list():
    assert _run("--list", "EU_FSF", str(FILES / "ftm-small.jsonl"))["entries"] == 6


def test_a_bad_file_and_a_shrink_end_with_an_error_and_change_nothing():
    _run("--list", "UN", str(FILES / "un-small-v1.xml"))
    with pytest.raises(CommandError, match="VALIDATION_ERROR.*cut off"):
        _run("--list", "UN", str(FILES / "un-cut.xml"))
    with pytest.raises(CommandError, match="LIST_SHRINK"):
        _run("--list", "UN", str(FILES / "un-small-shrink.xml"))
    assert SanctionsList.objects.get().current_version.number == 1
    assert _run("--list", "UN", str(FILES / "un-small-shrink.xml"), "--allow-shrink")["removed"] == 4


def test_a_missing_file_is_an_error():
    with pytest.raises(CommandError, match="Cannot read"):
        _run("--list", "UN", str(FILES / "no-such-file.xml"))
