"""Files a reader must refuse, each with the problem named: never a crash, never an expanded entity."""

import io
import time

import pytest

from compliance.sanctions.formats import ListFileProblem, read_ftm, read_ofac, read_un
from compliance.sanctions.formats.ofac import parse_dob, reading_order
from compliance.sanctions.tests.helpers import FILES, OFAC_SDN, UN_FILE


def _refused(reader, name: str) -> str:
    with pytest.raises(ListFileProblem) as caught:
        reader(io.BytesIO((FILES / name).read_bytes()))
    return str(caught.value)


@pytest.mark.parametrize(
    "name, words",
    [
        ("empty.xml", "empty"),
        ("un-cut.xml", "cut off"),
        ("un-wrong-root.xml", "not <CONSOLIDATED_LIST>"),
        ("un-billion-laughs.xml", "DTD"),
        ("un-external-entity.xml", "DTD"),
        ("ofac-small-sdn.csv", "Not a UN consolidated list"),
    ],
)
def test_un_reader_refuses(name, words):
    assert words in _refused(read_un, name)


def test_entity_expansion_is_refused_at_once():
    started = time.monotonic()
    _refused(read_un, "un-billion-laughs.xml")
    assert time.monotonic() - started < 5  # refused before anything is expanded (a generous bound)


def test_a_real_un_file_cut_anywhere_is_refused():
    data = UN_FILE.read_bytes()
    for fraction in (0.1, 0.5, 0.999):
        with pytest.raises(ListFileProblem, match="cut off"):
            read_un(io.BytesIO(data[: int(len(data) * fraction)]))


@pytest.mark.parametrize(
    "name, words",
    [
        ("empty.xml", "empty"),
        ("ofac-cut.csv", "cut off"),
        ("ofac-wrong.csv", "Not OFAC's legacy format"),
        ("un-small-v1.xml", "Not OFAC's legacy format"),
    ],
)
def test_ofac_reader_refuses(name, words):
    assert words in _refused(read_ofac, name)


def test_a_real_ofac_file_cut_inside_a_row_is_refused():
    data = OFAC_SDN.read_bytes()
    cut = data[: data.index(b"DOB 14 Jun 1975")]
    with pytest.raises(ListFileProblem, match="cut off"):
        read_ofac(io.BytesIO(cut))


def test_ofac_alt_file_problems_name_the_alt_file():
    with pytest.raises(ListFileProblem) as caught:
        read_ofac(io.BytesIO((FILES / "ofac-small-sdn.csv").read_bytes()), io.BytesIO(b"1,2,3\n"))
    assert caught.value.file == "alt"


@pytest.mark.parametrize(
    "name, words",
    [
        ("empty.xml", "empty"),
        ("ftm-cut.jsonl", "cut off"),
        ("un-small-v1.xml", "not JSON"),
        ("ofac-wrong.csv", "not JSON"),
    ],
)
def test_ftm_reader_refuses(name, words):
    assert words in _refused(read_ftm, name)


def test_ftm_lines_without_listed_parties_are_refused():
    with pytest.raises(ListFileProblem, match="no Person"):
        read_ftm(io.BytesIO(b'{"id": "a1", "schema": "Address", "properties": {}}\n'))


def test_ftm_reads_every_listed_schema_with_its_sanctions():
    entries = {e.publisher_id: e for e in read_ftm(io.BytesIO((FILES / "ftm-small.jsonl").read_bytes()))}
    assert {e.entry_type for e in entries.values()} == {"INDIVIDUAL", "ENTITY", "VESSEL", "AIRCRAFT"}
    assert len(entries) == 6  # the address is skipped
    person = entries["eu-fsf-1"]
    assert person.name == "Sipho Bheki Dlamini" and person.dates_of_birth == ["1975-06-14"]
    assert person.nationalities == ["SZ"] and person.programs == ["EU FSF"]
    assert str(person.listed_on) == "2019-02-03"
    assert [(a.name, a.quality) for a in person.aliases] == [("Sipho D.", "GOOD"), ("Fixer", "LOW")]
    assert str(entries["eu-fsf-2"].listed_on) == "2020-05-01" and entries["eu-fsf-2"].nationalities == ["ZA"]


@pytest.mark.parametrize(
    "written, expected",
    [
        ("14 Jun 1975", "1975-06-14"),
        ("Apr 1963", "1963-04"),
        ("1967", "1967"),
        ("circa 1937", "1937"),
        ("01 Jan 1946 to 31 Dec 1948", "1946/1948"),
        ("01 Mar 1965 to 31 Mar 1965", "1965-03"),
        ("1968 to 1969", "1968/1969"),
        ("31 Feb 1970", None),
    ],
)
def test_ofac_dates_of_birth(written, expected):
    assert parse_dob(written) == expected


@pytest.mark.parametrize(
    "written, expected",
    [
        ("MALKEVICH, Alexander Aleksandrovich", "Alexander Aleksandrovich MALKEVICH"),
        ("DELOS REYES, Feliciano Semborio, Jr.", "Feliciano Semborio DELOS REYES Jr."),
        ("ABU ZUBAYDAH", "ABU ZUBAYDAH"),
    ],
)
def test_ofac_reading_order(written, expected):
    assert reading_order(written) == expected


def test_ftm_json_nested_beyond_reason_is_refused():
    deep = b'{"id": "x", "schema": "Person", "properties": {"name": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}}\n"
    with pytest.raises(ListFileProblem, match="nests deeper"):
        read_ftm(io.BytesIO(deep))
