"""The explanation's shape (as the contract gives it), and the Match it comes with."""

import json

from names import MATCHER_VERSION, Person, compare


def test_the_explanation_has_the_contract_shape_and_is_json():
    match = compare(Person("Hon. Sipho B. Dlamini"), Person("DLAMINI, Sipho Bongani"))
    explanation = json.loads(json.dumps(match.explanation))
    assert set(explanation) == {"matcher_version", "parts", "adjustments", "summary"}
    assert explanation["matcher_version"] == MATCHER_VERSION
    for part in explanation["parts"]:
        assert set(part) == {"query", "candidate", "score", "weight", "note"}
        assert 0.0 <= part["score"] <= 1.0 and part["weight"] >= 0.0
    for adjustment in explanation["adjustments"]:
        assert set(adjustment) == {"kind", "effect", "note"}
    assert isinstance(explanation["summary"], str) and explanation["summary"].endswith(".")


def test_the_parts_say_which_aligned_with_which_and_how():
    parts = compare(Person("Sipho B. Dlamini"), Person("Sipho Bongani Dlamni")).explanation["parts"]
    by_query = {part["query"]: part for part in parts}
    assert by_query["sipho"]["candidate"] == "sipho" and by_query["sipho"]["note"] == "exact"
    assert by_query["b"]["candidate"] == "bongani" and by_query["b"]["note"] == "initial"
    assert by_query["dlamini"]["candidate"] == "dlamni" and by_query["dlamini"]["note"] == "1 slip"


def test_parts_without_counterpart_are_listed_as_conflicts_or_extras():
    parts = compare(Person("Sipho Dlamini"), Person("Themba Bongani Dlamini")).explanation["parts"]
    notes = {(part["query"], part["candidate"]): part["note"] for part in parts}
    assert notes[("sipho", None)] == "no counterpart: conflicts"
    assert sorted(note for (query, _), note in notes.items() if query is None) == [
        "extra part: costs little",
        "no counterpart: conflicts",
    ]


def test_ignored_words_and_transliteration_appear_among_the_adjustments():
    adjustments = compare(Person("Hon. Владимир Путин"), Person("Vladimir Putin")).explanation["adjustments"]
    notes = " ".join(item["note"] for item in adjustments)
    assert "'hon' ignored (title)" in notes
    assert "transliterated from Cyrillic" in notes


def test_the_summary_gives_the_verdict_the_score_and_the_threshold():
    match = compare(Person("Sipho Dlamini"), Person("Themba Dlamini"), threshold=0.8)
    assert match.explanation["summary"].startswith(f"No match at {match.score:.2f} (threshold 0.80)")
    assert match.is_match is False and match.threshold == 0.8


def test_the_threshold_is_a_parameter():
    query, candidate = Person("Sipho Dlamini"), Person("Sipho Dlamni")
    score = compare(query, candidate).score
    assert compare(query, candidate, threshold=score).is_match
    assert not compare(query, candidate, threshold=score + 0.01).is_match


def test_aliases_count_with_their_best_alignment_and_are_named():
    pep = Person("Makhosetive Dlamini", aliases=("Mswati III", "Ngwenyama Mswati"))
    match = compare(Person("King Mswati III"), pep)
    assert match.is_match and match.candidate_name == "Mswati III"
    assert any(item["kind"] == "alias" for item in match.explanation["adjustments"])


def test_comparing_is_deterministic():
    pairs = [("Sipho Dlamini", "Dlamini, S."), ("محمد بن سلمان", "Mohammed bin Salman Al Saud")]
    for query, candidate in pairs:
        first = compare(Person(query), Person(candidate))
        assert all(compare(Person(query), Person(candidate)) == first for _ in range(3))
