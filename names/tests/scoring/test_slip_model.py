"""The slip model (names/slips.py): which single edits are slips and which build another name, by class of
edit, at any length. Names here are invented or generic: each case stands for a class, not for a pair of a set."""

import pytest

from names import DEFAULT_THRESHOLD, Person, compare
from names.slips import ending_makes_another_name, unexplained_edit


def matches(query: str, candidate: str) -> bool:
    both = [compare(Person(query), Person(candidate)), compare(Person(candidate), Person(query))]
    assert both[0].score == both[1].score  # symmetric
    return both[0].score >= DEFAULT_THRESHOLD


# -------------------------------------------------------------------------------------------- final vowels
@pytest.mark.parametrize(
    ("query", "candidate"),
    [
        pytest.param("Paulo Ntshangase", "Paula Ntshangase", id="o/a, short"),
        pytest.param("Francisco Ntshangase", "Francisca Ntshangase", id="o/a, nine letters"),
        pytest.param("Alessandro Ntshangase", "Alessandra Ntshangase", id="o/a, ten letters"),
        pytest.param("Gabriele Ntshangase", "Gabriela Ntshangase", id="e/a, eight letters"),
        pytest.param("Emilie Ntshangase", "Emilio Ntshangase", id="e/o"),
        pytest.param("Sibongi Ntshangase", "Sibonga Ntshangase", id="i/a"),
        pytest.param("Khulekani Ntshangase", "Khulekano Ntshangase", id="i/o, nine letters"),
        pytest.param("Christian Ntshangase", "Christiana Ntshangase", id="a feminine a added, long"),
        pytest.param("Michel Ntshangase", "Michele Ntshangase", id="a feminine e added"),
    ],
)
def test_a_name_building_ending_is_another_name_at_any_length(query, candidate):
    assert not matches(query, candidate)


@pytest.mark.parametrize(
    ("query", "candidate"),
    [
        pytest.param("Mbongeni Ntshangase", "Mbongeni Ntshangasi", id="e/i"),
        pytest.param("Mbongeni Zwane", "Mbongeni Zwani", id="e/i, five letters"),
        pytest.param("Mbongeni Ndlovu", "Mbongeni Ndlova", id="u/a"),
        pytest.param("Lungisani Mthethwa", "Lungisan Mthethwa", id="a final i dropped"),
        pytest.param("Mfundo Mthethwa", "Mfund Mthethwa", id="a final o dropped"),
        pytest.param("Banele Mthethwa", "Banelee Mthethwa", id="a final vowel doubled"),
    ],
)
def test_another_final_vowel_edit_is_a_slip(query, candidate):
    assert matches(query, candidate)


def test_ending_rule_reasons():
    assert ending_makes_another_name("paulo", "paula") == "a changed final vowel"
    assert ending_makes_another_name("daniel", "daniela") == "an added or dropped final vowel"
    assert ending_makes_another_name("tsabedze", "tsabedzi") is None
    assert ending_makes_another_name("lungisani", "lungisan") is None
    assert ending_makes_another_name("banele", "banelee") is None


# ------------------------------------------------------------------------------------------- the front
@pytest.mark.parametrize(
    ("query", "candidate", "same"),
    [
        pytest.param("Andile Ngcobo", "Wandile Ngcobo", False, id="a consonant prefixed to a vowel"),
        pytest.param("Ungisani Ngcobo", "Lungisani Ngcobo", False, id="a consonant prefixed to a vowel, long"),
        pytest.param("Nselmo Ngcobo", "Anselmo Ngcobo", True, id="a vowel in front"),
        pytest.param("Samkelo Ngcobo", "Xsamkelo Ngcobo", True, id="a consonant struck before a consonant"),
        pytest.param("Mahlalela Sipho", "Hmahlalela Sipho", True, id="an h in front"),
        pytest.param("Evgeniy Ngcobo", "Yevgeniy Ngcobo", True, id="a glide in front"),
    ],
)
def test_only_a_consonant_prefixed_to_a_vowel_makes_another_name_at_the_front(query, candidate, same):
    assert matches(query, candidate) is same


# ---------------------------------------------------------------------------------------- substitutions
@pytest.mark.parametrize(
    ("query", "candidate", "same"),
    [
        pytest.param("Sipho Mabuza", "Sipho Mabuya", False, id="an unrelated consonant, six letters"),
        pytest.param("Sipho Gwebu", "Sipho Gwemu", False, id="an unrelated consonant, five letters"),
        pytest.param("Sipho Nxumalo", "Sipho Nxutalo", False, id="seven letters as written, eight as the key spells"),
        pytest.param("Sipho Mabuza", "Sipho Mabuxa", True, id="the key beside it"),
        pytest.param("Sipho Mabuza", "Sipho Mabusa", True, id="a consonant that sounds alike"),
        pytest.param("Sipho Gwebu", "Sipho Gwepu", True, id="voicing"),
        pytest.param("Sipho Mabuza", "Sipho Mabiza", True, id="a vowel for a vowel"),
        pytest.param("Sipho Dlamini", "Sipho Dlamlni", True, id="a letter OCR reads for it"),
        pytest.param("Sibusiso Mavimbela", "Sibusiso Mavimbqla", True, id="any letter in a long part"),
    ],
)
def test_a_substitution_in_a_short_part_is_a_slip_only_when_writing_explains_it(query, candidate, same):
    assert matches(query, candidate) is same


def test_unexplained_edit_judges_single_substitutions_in_short_parts_only():
    assert unexplained_edit("mabuza", "mabuya", 6) == "a different consonant"
    assert unexplained_edit("mabuza", "mabuxa", 6) is None  # neighbouring keys
    assert unexplained_edit("mabuza", "mabza", 6) is None  # a letter dropped: always a slip
    assert unexplained_edit("mabuza", "mbauza", 6) is None  # a swap
    assert unexplained_edit("mavimbela", "mavimbqla", 9) is None  # a long part
    assert unexplained_edit("nksumalo", "nksutalo", 7) == "a different consonant"  # the key of "nxumalo"


# ------------------------------------------------------------------------------------------- noisy names
@pytest.mark.parametrize(
    ("query", "candidate"),
    [
        pytest.param("Lindo Sikhondze", "Lindi Sikhondza", id="two name-building endings vouch for each other"),
        pytest.param("Nomvulo Sikhondze", "Nomvula Sikkhondze", id="a doubled letter vouches as a slip"),
        pytest.param("Mbali Nxumalo", "Mbalo Nxutalo", id="beside an unexplained consonant, read the same way"),
    ],
)
def test_edits_in_two_parts_make_a_noisy_record(query, candidate):
    assert matches(query, candidate)


def test_a_name_building_ending_beside_an_exact_rest_stays_another_name():
    assert not matches("Lindo Sikhondze", "Lindi Sikhondze")
    assert not matches("Lindo Sikhondze Dube", "Lindi Sikhondze Dube")


def test_the_explanation_says_which_edit_vouched_when_both_would_be_other_names():
    match = compare(Person("Lindo Sikhondze"), Person("Lindi Sikhondza"))
    notes = [item["note"] for item in match.explanation["adjustments"] if item["kind"] == "readAsSlip"]
    assert len(notes) == 2
    assert any("'lindo' ~ 'lindi'" in note and "'sikhondze' ~ 'sikhondza' differs by one edit too" in note
               for note in notes)  # fmt: skip
    parts = {part["query"]: part["note"] for part in match.explanation["parts"]}
    assert parts["lindo"] == parts["sikhondze"] == "1 slip, or another name (a changed final vowel)"
