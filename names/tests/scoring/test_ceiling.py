"""A search skips aligning a candidate whose parts cannot reach the floor (``names.compare._ceiling``): the ceiling
must never be below the score, so a skipped candidate is one the full comparison scores below the floor too, and a
candidate that is not skipped scores and explains exactly as before."""

import csv
import importlib
import random
from pathlib import Path

import pytest

from names.parse import parse_name
from names.weights import DEFAULT_FREQUENCIES

compare_module = importlib.import_module("names.compare")  # the package exports compare() under that name

SETS = Path(__file__).resolve().parents[3] / "bench" / "names"


@pytest.fixture(scope="module")
def pairs():
    """The evaluation's labelled pairs (near names, both kinds) and as many crossed at random: names of other
    people, most sharing a part or nothing, which are what a search's candidates mostly are."""
    with (SETS / "evaluation_pairs.csv").open(encoding="utf-8") as handle:
        labelled = [(row["query"], row["candidate"]) for row in csv.DictReader(handle)]
    with (SETS / "adversarial_test.csv").open(encoding="utf-8") as handle:
        labelled += [(row["query"], row["candidate"]) for row in csv.DictReader(handle)]
    rng = random.Random(26)
    candidates = [candidate for _, candidate in labelled]
    crossed = [(query, rng.choice(candidates)) for query, _ in labelled]
    return [(parse_name(query), parse_name(candidate)) for query, candidate in labelled + crossed]


@pytest.mark.parametrize("floor", [0.75, 0.5])
def test_a_skipped_comparison_scores_below_the_floor_and_the_others_are_unchanged(pairs, floor):
    skipped = 0
    for query, candidate in pairs:
        full = compare_module._compare_names(query, candidate, DEFAULT_FREQUENCIES)
        floored = compare_module._compare_names(query, candidate, DEFAULT_FREQUENCIES, floor)
        if floored is None:
            skipped += 1
            assert full.score < floor, (query.original, candidate.original, full.score)
        else:
            assert (floored.score, floored.parts, floored.notes) == (full.score, full.parts, full.notes)
    assert skipped > len(pairs) // 4  # the crossed pairs are mostly skipped: the test exercises the ceiling


def test_an_exact_name_is_never_skipped(pairs):
    for query, _ in pairs[:500]:
        assert compare_module._compare_names(query, query, DEFAULT_FREQUENCIES, 0.75) is not None
