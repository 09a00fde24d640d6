"""python manage.py import_peps and screen_name, end to end on real files."""

import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from compliance.aml.models.alerts import Alert
from compliance.peps.models.pep import PEP, ScreeningRun
from compliance.peps.tests.helpers import add_pep, make_user

pytestmark = pytest.mark.django_db
FILES = Path(__file__).parent / "files"


def run(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("import_peps", *args, "--no-progress", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "name,count", [("peps.csv", 3), ("peps.json", 3), ("entities.ftm.json", 3), ("targets.simple.csv", 3)]
)
def test_each_format_imports(name, count):
    out, _ = run(str(FILES / name))
    assert f"{count} were created" in out
    assert PEP.objects.count() == count


def test_opensanctions_rows_take_the_category_and_source_options():
    run(str(FILES / "targets.simple.csv"), "--category", "head_of_state", "--source", "ignored-when-given")
    pep = PEP.objects.get(name="Emmerson Mnangagwa")
    assert pep.category == "Head of State" and pep.source == "Every Politician"
    assert PEP.objects.get(name="Mswati III").aliases == ["Makhosetive Dlamini"]


def test_bad_rows_are_listed_with_their_line_numbers_and_the_rest_imported():
    out, err = run(str(FILES / "peps_bad.csv"))
    assert "1 were created" in out and "6 refused" in out
    for line in (3, 4, 5, 6, 7, 8):
        assert f"line {line}:" in err
    assert "line 3: (no name): Name is required" in err
    assert "Same name as line 2" in err
    assert list(PEP.objects.values_list("name", flat=True)) == ["Good Person Okafor"]


def test_a_bad_json_file_lists_its_items_lines():
    out, err = run(str(FILES / "peps_bad.json"))
    assert "1 were created" in out and "line 3:" in err and "line 6:" in err


def test_dry_run_writes_nothing():
    out, _ = run(str(FILES / "peps.csv"), "--dry-run")
    assert "3 would be created" in out and not PEP.objects.exists() and not ScreeningRun.objects.exists()


def test_re_import_is_idempotent_and_unchanged_rows_are_not_screened_again(tmp_path):
    make_user("Russell", "Dlamini")
    run(str(FILES / "peps.csv"))
    assert Alert.objects.count() == 1
    runs = ScreeningRun.objects.count()
    out, _ = run(str(FILES / "peps.csv"))
    assert "0 were created, 0 updated, 3 unchanged" in out
    assert PEP.objects.count() == 3 and Alert.objects.count() == 1
    changed = tmp_path / "changed.csv"
    shutil.copy(FILES / "peps.csv", changed)
    changed.write_text(changed.read_text().replace("Minister,South Africa", "Minister of Finance,South Africa"))
    out, _ = run(str(changed))
    assert "1 updated, 2 unchanged" in out
    assert PEP.objects.get(name="Thembi Simelane").version == 2
    assert ScreeningRun.objects.count() == runs  # a position is not matching content: nothing screened


def test_the_summary_reports_the_matching():
    user = make_user("Makhosetive", "Dlamini", date_of_birth="1968-04-19")
    out, _ = run(str(FILES / "entities.ftm.json"))
    assert "1 users matched" in out and "1 alerts raised" in out
    assert Alert.objects.get().user == user


def test_an_unreadable_file_is_an_error():
    with pytest.raises(CommandError):
        run(str(FILES / "missing.csv"))
    with pytest.raises(CommandError):
        run(str(FILES / "peps.csv"), "--format", "json")


def test_screen_name_prints_the_endpoints_answer():
    add_pep("Jacob Gedleyihlekisa Zuma", country="South Africa", category="Head of State")
    out = StringIO()
    call_command("screen_name", "Zuma, Jacob G.", "--country", "ZA", stdout=out)
    answer = json.loads(out.getvalue())
    assert answer["success"] is True and answer["count"] == 1
    assert answer["data"][0]["pep"]["name"] == "Jacob Gedleyihlekisa Zuma"
    assert answer["data"][0]["explanation"]["summary"].startswith("Match")
    brief = StringIO()
    call_command("screen_name", "Themba Zungu", "--brief", stdout=brief)
    assert brief.getvalue().strip().endswith("0 match(es)")
