"""Reading PEP list files: each format on good and bad files, and telling the formats apart."""

from pathlib import Path

import pytest

from compliance.peps.formats import UnreadableFile, detect_format, read_rows

FILES = Path(__file__).parent / "files"


def rows_of(name: str, format: str | None = None):
    return read_rows((FILES / name).read_text(encoding="utf-8"), format)


@pytest.mark.parametrize(
    "name,format",
    [
        ("peps.csv", "csv"),
        ("peps.json", "json"),
        ("entities.ftm.json", "ftm"),
        ("targets.simple.csv", "opensanctions-csv"),
    ],
)
def test_the_format_is_detected_from_the_content(name, format):
    assert detect_format((FILES / name).read_text(encoding="utf-8")) == format


def test_our_csv_reads_the_api_fields():
    format, rows = rows_of("peps.csv")
    rows = list(rows)
    assert format == "csv" and [line for line, _, _ in rows] == [2, 3, 4]
    line, first, problem = rows[0]
    assert problem == ""
    assert first == {
        "name": "Russell Mmiso Dlamini",
        "category": "Senior Politician",
        "position": "Prime Minister",
        "country": "Eswatini",
        "source": "gazette",
        "is_active": True,
        "aliases": ["R. M. Dlamini", "Russell Dlamini"],
        "date_of_birth": "1976-02-01",
        "additional_info": {"term": "2023-"},
    }
    assert rows[2][1]["is_active"] is False and rows[2][1]["category"] == "judge"


def test_a_bad_csv_cell_is_a_problem_of_its_line():
    _, rows = rows_of("peps_bad.csv")
    problems = {line: problem for line, _, problem in rows if problem}
    assert set(problems) == {5, 7}
    assert "isActive" in problems[5] and "additionalInfo" in problems[7]


def test_json_items_carry_the_line_they_start_on():
    _, rows = rows_of("peps.json")
    rows = list(rows)
    assert [line for line, _, _ in rows] == [2, 4, 6]
    assert rows[0][1]["aliases"] == ["Ngozi Okonjo Iweala"] and rows[0][1]["date_of_birth"] == "1954-06-13"
    assert rows[1][1]["additional_info"] == {"party": "ANC"}


def test_bad_json_items_are_problems_of_their_lines():
    _, rows = rows_of("peps_bad.json")
    problems = {line: problem for line, _, problem in rows if problem}
    assert set(problems) == {4, 5, 6}
    assert "nickname" in problems[4] and "object" in problems[5] and "isActive" in problems[6]


def test_followthemoney_persons_become_peps_and_other_entities_are_skipped():
    _, rows = rows_of("entities.ftm.json")
    rows = list(rows)
    by_line = {line: (fields, problem) for line, fields, problem in rows}
    assert set(by_line) == {1, 2, 5, 6, 7}  # the company and the ownership are not persons
    putin, _ = by_line[1]
    assert putin["name"] == "Vladimir Putin" and putin["date_of_birth"] == "1952-10-07"
    assert putin["aliases"] == ["Владимир Владимирович Путин", "Putin Vladimir Vladimirovich"]
    assert putin["country"] == "Russian Federation" and putin["position"] == "President of the Russian Federation"
    assert putin["source"] == "wd_peps" and putin["additional_info"]["opensanctionsId"] == "Q7747"
    king, _ = by_line[2]
    assert king["name"] == "Mswati III" and king["aliases"] == ["Makhosetive Dlamini"] and king["country"] == "Eswatini"
    assert king["source"] == "wd_peps, everypolitician"
    assert "name" not in by_line[5][0]  # a person without a name: the import refuses it
    assert by_line[6] == (None, by_line[6][1]) and "JSON" in by_line[6][1]
    assert by_line[7][0]["date_of_birth"] == "1953-06"


def test_opensanctions_targets_simple_csv():
    _, rows = rows_of("targets.simple.csv")
    rows = list(rows)
    assert [line for line, _, _ in rows] == [2, 3, 5, 6]
    first = rows[0][1]
    assert first["name"] == "Emmerson Mnangagwa" and first["aliases"] == ["Emmerson Dambudzo Mnangagwa", "Ngwena"]
    assert first["date_of_birth"] == "1942-09-15" and first["country"] == "Zimbabwe"
    assert first["source"] == "Every Politician"
    assert rows[2][1]["additional_info"]["countries"] == ["Namibia", "South Africa"]


@pytest.mark.parametrize(
    "text,format",
    [("", None), ("[1, 2", "json"), ("name\n", "ftm-x"), ('{"x": 1}', "json"), ("colour,size\nred,1\n", "csv")],
)
def test_unreadable_files_are_refused_as_a_whole(text, format):
    with pytest.raises(UnreadableFile):
        list(read_rows(text, format)[1])
