"""The in-memory candidate index: what the matcher finds by comparing everyone, the index finds through keys."""

import random

import pytest

from names import Person, compare
from names.index import IndexHolder, IndexRecord, NameIndex

RECORDS = [
    IndexRecord("sipho", ("Sipho Bongani Dlamini", "S. B. Dlamini"), ("1980-02-01",), ("SZ",)),
    IndexRecord("themba", ("Themba Dlamini",), ("1975",), ("SZ",)),
    IndexRecord("putin", ("Vladimir Vladimirovich Putin", "Владимир Путин"), ("1952-10-07",), ("RU",)),
    IndexRecord("mbs", ("Mohammed bin Salman Al Saud",), ("1985/1986",), ("SA",)),
    IndexRecord("xi", ("Xi Jinping", "习近平"), ("1953",), ("CN",)),
    IndexRecord("merwe", ("Pieter van der Merwe",), (), ("ZA",)),
    IndexRecord("fenamuga", ("Nomvula Fenamuga",)),
    IndexRecord("qaida", ("Al-Qaida", "The Base"), kind="entity"),
]


@pytest.fixture(scope="module")
def index():
    return NameIndex.build(RECORDS)


def keys(hits):
    return [hit.key for hit in hits]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Sipho Dlamini", "sipho"),  # a missing middle name
        ("DLAMINI, Sipho Bongani", "sipho"),  # order, case, comma
        ("Sipho Bongani Dlamimi", "sipho"),  # a slip
        ("Vladimir Putin", "putin"),
        ("Владимир Владимирович Путин", "putin"),  # another script
        ("Muhammad bin Salman", "mbs"),  # transliteration
        ("Xi Jin Ping", "xi"),
        ("Pieter Vandermerwe", "merwe"),
        ("Nonvula Fenamuka", "fenamuga"),  # a slip in every part
        ("al qaida", "qaida"),
    ],
)
def test_variations_of_a_listed_name_are_found(index, query, expected):
    assert expected in keys(index.search(query, threshold=0.8))


def test_a_different_person_sharing_a_family_name_is_not_a_hit(index):
    assert keys(index.search("Thandiwe Dlamini", threshold=0.8)) == []
    assert keys(index.search("Sipho Dlamini", threshold=0.8)) == ["sipho"]


def test_kind_filters_records(index):
    assert keys(index.search("Al Qaida", threshold=0.8, kind="person")) == []
    assert keys(index.search("Al Qaida", threshold=0.8, kind="entity")) == ["qaida"]


def test_a_conflicting_date_of_birth_lowers_the_score_and_says_so(index):
    plain = index.search("Sipho Dlamini", threshold=0.5)[0]
    conflicting = index.search("Sipho Dlamini", threshold=0.5, birth_date="1960-01-01")[0]
    assert conflicting.key == plain.key == "sipho"
    assert conflicting.name_score == plain.name_score
    assert conflicting.score < plain.score
    assert "dates of birth conflict" in conflicting.explanation
    assert index.search("Sipho Dlamini", threshold=0.8, birth_date="1960-01-01") == []


def test_a_date_within_a_listed_range_agrees_and_one_outside_it_conflicts(index):
    inside = index.search("Mohammed bin Salman Al Saud", threshold=0.5, birth_date="1986")[0]
    outside = index.search("Mohammed bin Salman Al Saud", threshold=0.5, birth_date="1970")[0]
    assert "within the listed range" in inside.explanation
    assert "outside the listed range" in outside.explanation
    assert outside.score < inside.score


def test_a_differing_country_lowers_the_score_and_says_so(index):
    agreeing = index.search("Sipho Bongani Dlamini", threshold=0.5, country="Eswatini")[0]
    differing = index.search("Sipho Bongani Dlamini", threshold=0.5, country="ZA")[0]
    assert differing.score < agreeing.score
    assert "country differs (ZA; listed: SZ)" in differing.explanation


def test_an_exact_name_always_surfaces_whatever_date_and_country_say(index):
    hits = index.search("PUTIN, Vladimir Vladimirovich", threshold=0.85, birth_date="1990", country="SZ")
    assert keys(hits) == ["putin"]
    assert hits[0].score == 0.85 and hits[0].name_score == 1.0
    assert "dates of birth conflict" in hits[0].explanation
    assert "country differs" in hits[0].explanation


def test_hits_report_the_alias_that_matched(index):
    hit = index.search("Владимир Путин", threshold=0.8)[0]
    assert hit.matched_name == "Владимир Путин"


def _generated(count, seed):
    rng = random.Random(seed)
    given = ["Sipho", "Themba", "Nomsa", "John", "Maria", "Ahmed", "Olga", "Wei", "Priya", "Carlos", "Lindiwe"]
    family = ["Dlamini", "Nkosi", "Smith", "Garcia", "Hassan", "Ivanova", "Chen", "Patel", "Silva", "Motsa"]
    syllables = ["ka", "lo", "mi", "ra", "shi", "ndo", "be", "tu", "vi", "zo", "qa", "nje", "phu", "tse"]

    def invented():
        return "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))).capitalize()

    return [
        IndexRecord(number, (f"{rng.choice(given)} {invented()} {rng.choice(family)}", f"{invented()} {invented()}"))
        for number in range(count)
    ]


def test_the_index_finds_what_comparing_everyone_finds():
    records = _generated(1500, seed=7)
    index = NameIndex.build(records)
    rng = random.Random(11)
    for record in rng.sample(records, 40):
        name = record.names[rng.randrange(2)]
        parts = name.split()
        query = " ".join(reversed(parts[1:])) if len(parts) > 2 else name  # order swapped, given name dropped
        exhaustive = {
            other.key
            for other in records
            if compare(Person(query), Person(other.names[0], aliases=other.names[1:])).score >= 0.8
        }
        assert exhaustive <= set(keys(index.search(query, threshold=0.8, limit=100))), query


def test_an_exact_name_surfaces_among_thousands_sharing_its_parts():
    records = [IndexRecord(number, (f"John Smith {'' if number == 0 else number}".strip(),)) for number in range(5000)]
    index = NameIndex.build(records)
    assert 0 in keys(index.search("Smith John", threshold=0.8, limit=100))


def test_the_holder_rebuilds_only_when_the_version_changes():
    state = {"version": 1, "records": [RECORDS[0]], "loads": 0}

    def load():
        state["loads"] += 1
        return list(state["records"])

    holder = IndexHolder(load=load, version=lambda: state["version"], check_every=0)
    assert len(holder.get()) == 1
    holder.get()
    assert state["loads"] == 1
    state["records"] = RECORDS
    state["version"] = 2
    assert len(holder.get()) == len(RECORDS)
    assert state["loads"] == 2


def test_the_holder_asks_the_version_at_most_every_period_unless_invalidated():
    asked = []
    holder = IndexHolder(load=lambda: RECORDS, version=lambda: asked.append(1) or 1, check_every=3600)
    holder.get()
    holder.get()
    assert len(asked) == 1
    holder.invalidate()
    holder.get()
    assert len(asked) == 2
