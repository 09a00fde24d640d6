"""Parsing a written name into parts, and what is ignored on the way."""

import pytest

from names import parse_name


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("Sipho Dlamini", ("sipho", "dlamini")),
        ("DLAMINI, Sipho", ("sipho", "dlamini")),
        ("Hon. Dr Themba Masuku MP", ("themba", "masuku")),
        ("His Majesty King Mswati III", ("mswati",)),
        ("Mswati III, King", ("mswati",)),
        ("Martin Luther King", ("martin", "luther", "king")),
        ("Prince", ("prince",)),
        ("Sipho (Bra Sips) Dlamini", ("sipho", "dlamini")),
        ("Владимир Путин", ("vladimir", "putin")),
        ("习近平", ("xi", "jinping")),
        ("H.E. He Lifeng", ("he", "lifeng")),
        ("عمر البشير", ("mr", "lbshyr")),
        ("Mary-Anne O'Brien", ("mary", "anne", "obrien")),
    ],
)
def test_names_parse_into_ordered_latin_parts(name, parts):
    assert parse_name(name).parts == parts


def test_what_is_ignored_is_reported_with_the_reason():
    ignored = {(item.text, item.reason) for item in parse_name("Hon. Themba Masuku Jr, MP").ignored}
    assert ("hon", "title") in ignored
    assert ("jr", "suffix") in ignored
    assert ("MP", "title or suffix after a comma") in ignored


def test_the_script_and_kind_of_each_part_are_recorded():
    parsed = parse_name("محمد Putin 习近平")
    assert parsed.scripts == ("Arabic", "Cjk")
    assert parsed.kinds == ("abjad", "latin", "syllabic", "syllabic")


def test_standalone_digits_are_dropped_and_digits_in_words_read_as_letters():
    parsed = parse_name("S1PHO Dlamini 1980")
    assert parsed.parts == ("sipho", "dlamini")
    assert {item.reason for item in parsed.ignored} == {"digits", "digits read as letters"}
