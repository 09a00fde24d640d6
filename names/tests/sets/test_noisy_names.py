"""Noisy names: an edit that would make another name reads as a slip when another part of the name has one."""

import pytest

from names import DEFAULT_THRESHOLD, Person, compare


def both_ways(query: str, candidate: str) -> list:
    return [compare(Person(query), Person(candidate)), compare(Person(candidate), Person(query))]


@pytest.mark.parametrize(
    ("query", "candidate"),
    [
        pytest.param("Nomvulo Fenamuga", "Nomvula Fenamugi", id="a changed final vowel beside a slip"),
        pytest.param("Temalangeni Sukati", "Temalangen Sjkati", id="a dropped final vowel beside a slip"),
        pytest.param("Sibusiso Mavimbela", "Xsibusiso Mavimbla", id="a letter added in front beside a slip"),
        pytest.param("Zandile Bongiwe Mkhonta", "Zandila Bongiwe Mkhotna", id="three parts, one of them exact"),
        pytest.param("Dlamini, Nomvulo Fenamuga", "Nomvula Fenamugi Dlamini", id="reordered"),
    ],
)
def test_an_edit_making_another_name_is_a_slip_in_a_name_with_slips(query, candidate):
    for match in both_ways(query, candidate):
        assert match.is_match, match.explanation["summary"]


@pytest.mark.parametrize(
    ("query", "candidate"),
    [
        pytest.param("Nomvula Fenamuga", "Nomvulo Fenamuga", id="the rest written the same"),
        pytest.param("Thando Simelane", "Thandi Simelane", id="a common family name written the same"),
        pytest.param("Daniel Moyo", "Daniela Moyo", id="an added final vowel, the rest the same"),
        pytest.param("Nomvula Fenamuga", "Nomvulo Phenamuga", id="beside a spelling variant, not a slip"),
        pytest.param("Sipho Mavimbela", "Siphiwe Mavimbla", id="an added syllable is never one slip"),
        pytest.param("Thando Mavimbela", "Thandi Mavimbaleni", id="beside a part that is another name too"),
        pytest.param("Jan Kowalski", "Jana Kowalska", id="beside a gendered family-name ending"),
        pytest.param("Aleksandr Volkov", "Aleksandra Volkova", id="gendered forms on both parts"),
        pytest.param("Paulo Nkambule", "Paula Nkambule Dlamini", id="an extra part is no slip"),
    ],
)
def test_it_stays_another_name_where_nothing_else_was_slipped(query, candidate):
    for match in both_ways(query, candidate):
        assert not match.is_match, match.explanation["summary"]


def test_the_explanation_names_the_edit_and_the_slip_that_vouches_for_it():
    match = compare(Person("Nomvulo Fenamuga"), Person("Nomvula Fenamugi"))
    notes = {(part["query"], part["candidate"]): part["note"] for part in match.explanation["parts"]}
    assert notes[("nomvulo", "nomvula")] == "1 slip, or another name (a changed final vowel)"
    # a final a / i is a name-building ending too (Themba / Thembi): each of the two edits vouches for the other
    assert notes[("fenamuga", "fenamugi")] == "1 slip, or another name (a changed final vowel)"
    readings = [item for item in match.explanation["adjustments"] if item["kind"] == "readAsSlip"]
    assert len(readings) == 2
    reading = next(item for item in readings if "'nomvulo' ~ 'nomvula'" in item["note"])
    assert "'fenamuga' ~ 'fenamugi' differs by one edit too" in reading["note"]
    assert reading["effect"] > 0
    assert "nomvulo~nomvula (1 slip, or another name" in match.explanation["summary"]


def test_written_family_name_first_both_edits_vouch_for_each_other():
    # without a comma the family name's place is unknown: both edits are read as possibly other names
    match = compare(Person("Fenamuga Nomvulo"), Person("Nomvula Fenamugi"))
    readings = [item for item in match.explanation["adjustments"] if item["kind"] == "readAsSlip"]
    assert len(readings) == 2 and match.is_match
    assert any("'nomvulo' ~ 'nomvula'" in item["note"] and "differs by one edit too" in item["note"]
               for item in readings)  # fmt: skip


def test_a_plain_slip_is_named_as_the_one_that_vouches():
    match = compare(Person("Nomvulo Fenamuga"), Person("Nomvula Fenamuka"))
    [reading] = [item for item in match.explanation["adjustments"] if item["kind"] == "readAsSlip"]
    assert "'nomvulo' ~ 'nomvula'" in reading["note"] and "'fenamuga' ~ 'fenamuka' has a slip too" in reading["note"]


def test_the_edit_read_as_a_slip_scores_as_one_slip_not_as_exact():
    noisy = compare(Person("Nomvulo Fenamuga"), Person("Nomvula Fenamugi")).score
    clean_slips = compare(Person("Nomvula Fenamuga"), Person("Nomvila Fenamugi")).score
    assert noisy == clean_slips < 1.0
    assert noisy >= DEFAULT_THRESHOLD
