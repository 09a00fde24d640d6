"""Date of birth and country adjust a score only when both sides have them."""

import datetime

import pytest

from names import DEFAULT_THRESHOLD, BirthDate, Person, compare, normalise_country, parse_birth_date


def scored(query_dob=None, candidate_dob=None, query_country=None, candidate_country=None, names=None):
    query, candidate = names or ("Sipho Dlamini", "Sipho Dlamini")
    return compare(
        Person(query, date_of_birth=query_dob, country=query_country),
        Person(candidate, date_of_birth=candidate_dob, country=candidate_country),
    )


def test_a_clear_date_of_birth_conflict_pulls_a_perfect_name_below_the_threshold():
    match = scored("1980-02-01", "1995-07-30")
    assert match.score < DEFAULT_THRESHOLD
    assert [item["kind"] for item in match.explanation["adjustments"]][:1] == ["dateOfBirth"]


def test_an_agreeing_date_of_birth_raises_a_name_score_a_little():
    plain = scored(names=("Sipho Dlamini", "Sipho Dlamni")).score
    agreeing = scored("1980-02-01", "1980-02-01", names=("Sipho Dlamini", "Sipho Dlamni")).score
    assert plain < agreeing <= plain + 0.05


@pytest.mark.parametrize(
    ("query_dob", "candidate_dob", "sign"),
    [
        ("1980-02-01", "1980-02-01", 1),
        ("1980", "1980-02-01", 1),
        ("1962-03-04", "1962-04-03", 1),
        ("1980-02-01", "1980-02-11", -1),
        ("1980", "1981", -1),
        ("1980", "1990", -1),
    ],
)
def test_date_of_birth_effects(query_dob, candidate_dob, sign):
    adjustment = scored(query_dob, candidate_dob).explanation["adjustments"][0]
    assert adjustment["kind"] == "dateOfBirth" and adjustment["effect"] * sign > 0


def test_one_sided_dates_and_countries_change_nothing():
    assert scored("1980-02-01", None, "SZ", None).explanation["adjustments"] == []
    assert scored("1980-02-01", None).score == scored().score


def test_country_agreement_and_difference():
    agreeing = scored(query_country="Swaziland", candidate_country="SZ")
    differing = scored(query_country="Eswatini", candidate_country="South Africa")
    assert agreeing.explanation["adjustments"][0]["note"] == "country agrees (SZ)"
    assert differing.explanation["adjustments"][0]["effect"] < 0
    assert differing.is_match  # people move: a different country alone does not undo a name match


@pytest.mark.parametrize(
    ("value", "code"),
    [("SZ", "SZ"), ("swz", "SZ"), ("Eswatini", "SZ"), ("Swaziland", "SZ"), ("Kingdom of Eswatini", "SZ"),
     ("South Africa", "ZA"), ("RSA", "ZA"), ("Côte d'Ivoire", "CI"), ("Tanzania", "TZ"), ("", None),
     ("Atlantis", None)],
)  # fmt: skip
def test_countries_normalise_to_alpha_2(value, code):
    assert normalise_country(value) == code


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (datetime.date(1980, 2, 1), BirthDate(1980, 2, 1)),
        (1980, BirthDate(1980)),
        ("1980-02", BirthDate(1980, 2)),
        ("1980-02-01", BirthDate(1980, 2, 1)),
        (None, None),
    ],
)
def test_dates_of_birth_may_be_partial(value, expected):
    assert parse_birth_date(value) == expected


@pytest.mark.parametrize("value", ["01/02/1980", "1980-13", "1980-02-30"])
def test_impossible_dates_of_birth_are_refused(value):
    with pytest.raises(ValueError):
        parse_birth_date(value)


@pytest.mark.parametrize("query_dob", [None, "1980", "1980-02", "1980-02-01", "1980-01-02", "1981-02-01"])
@pytest.mark.parametrize("query_country", [None, "SZ", "ZA"])
@pytest.mark.parametrize(
    "names", [("Sipho Dlamini", "Sipho Dlamini"), ("S. Dlamini", "Sipho Dlamini"), ("Mswati", "Mswati III")]
)
def test_date_of_birth_and_country_never_add_more_than_the_declared_gain(query_dob, query_country, names):
    from names import MAX_ADJUSTMENT_GAIN

    name_only = scored(names=names).score
    adjusted = scored(query_dob, "1980-02-01", query_country, "SZ", names=names).score
    assert adjusted <= name_only + MAX_ADJUSTMENT_GAIN + 1e-9
