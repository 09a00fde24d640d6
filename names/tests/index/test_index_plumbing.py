"""The index's plumbing gives the answers of the plain way of computing them: the likeness read from the part
table is the likeness of the written parts, a hit's explanation is compare()'s, a name listed twice is one
comparison. (Speed is measured in bench/sanctions.py, never asserted here.)"""

import random

import numpy as np
from rapidfuzz import fuzz, process

import names.index as index_module
from names import Person, compare
from names.index import INITIAL_LIKENESS, IndexRecord, NameIndex, _explain
from names.parse import parse_name

GIVEN = ["Sipho", "Themba", "Nomsa", "John", "Maria", "Ahmed", "Olga", "Wei", "Priya", "Carlos", "Abd", "S."]
FAMILY = ["Dlamini", "Nkosi", "Smith", "Garcia", "Hassan", "Ivanova", "Chen", "Patel", "al-Rahman", "van der Merwe"]


def _records(count: int, seed: int) -> list[IndexRecord]:
    rng = random.Random(seed)
    return [
        IndexRecord(
            number,
            tuple(
                " ".join([*rng.sample(GIVEN, rng.randint(1, 2)), rng.choice(FAMILY)]) for _ in range(rng.randint(1, 3))
            ),
            kind="entity" if number % 7 == 0 else "person",
        )
        for number in range(count)
    ]


def _likeness_of_written_parts(index: NameIndex, parts: tuple[str, ...], numbers: list[int]) -> np.ndarray:
    """The likeness as computed from each candidate's normalised name split into strings (the reference)."""
    candidate_parts = [" ".join(parse_name(index._name_texts[number]).parts).split() for number in numbers]
    distinct = list({part for found in candidate_parts for part in found})
    column = {part: position for position, part in enumerate(distinct)}
    likeness = process.cdist(list(parts), distinct, scorer=fuzz.ratio, dtype=np.float32) / 100.0
    for row, part in enumerate(parts):
        if len(part) == 1:
            likeness[row] = [INITIAL_LIKENESS if other[0] == part else 0.0 for other in distinct]
    for position, other in enumerate(distinct):
        if len(other) == 1:
            likeness[:, position] = [INITIAL_LIKENESS if part[0] == other else 0.0 for part in parts]
    weights = np.asarray([index._frequencies.weight(part) for part in parts], dtype=np.float32)
    widest = max(len(found) for found in candidate_parts)
    likeness = np.concatenate([likeness, np.zeros((len(parts), 1), dtype=np.float32)], axis=1)
    columns = np.full((len(numbers), widest), len(distinct), dtype=np.int64)
    for position, found in enumerate(candidate_parts):
        columns[position, : len(found)] = [column[part] for part in found]
    table = likeness[:, columns]
    counts = np.asarray([len(found) for found in candidate_parts], dtype=np.float32)
    by_query = (weights @ table.max(axis=2)) / float(weights.sum())
    by_candidate = table.max(axis=0).sum(axis=1) / counts
    return np.where(counts >= len(parts), by_query, by_candidate)


def test_the_likeness_read_from_the_part_table_is_that_of_the_written_parts():
    index = NameIndex.build(_records(800, seed=3))
    rng = random.Random(5)
    for query in ["Sipho Dlamini", "S Dlamini", "abd al rahman hassan", "J. Smith", "Chen", "Maria van der Merwe"]:
        parts = parse_name(query).parts
        numbers = sorted(rng.sample(range(len(index._name_texts)), 300))
        ours = index._likeness(parts, np.asarray(numbers, dtype=np.int64))
        assert np.array_equal(ours, _likeness_of_written_parts(index, parts, numbers)), query


def test_a_hits_explanation_is_that_of_compare():
    index = NameIndex.build(_records(600, seed=9))
    queries = ["Sipho Dlamini", "Dlamini Sipho Themba", "Ahmed Hassan", "Olga Ivanova", "S. Nkosi", "John Smyth"]
    found = 0
    for query in queries:
        for hit in index.search(query, threshold=0.8, limit=50):
            if "kept at the threshold" in hit.explanation:
                continue
            match = compare(Person(query), Person(hit.matched_name))
            assert hit.name_score == match.score
            assert hit.explanation == _explain(query, hit.matched_name, match, [], "")
            found += 1
    assert found > 20


def test_a_name_on_two_records_is_compared_once(monkeypatch):
    records = [
        IndexRecord("un", ("Abu Bakr al-Baghdadi",)),
        IndexRecord("ofac", ("ABU BAKR AL BAGHDADI", "Ibrahim Awad")),
        IndexRecord("other", ("Abu Bakr Hassan",)),
    ]
    index = NameIndex.build(records)
    compared = []
    real = index_module._compare_names

    def counting(query, candidate, frequencies, floor=None):
        compared.append(candidate.parts)
        return real(query, candidate, frequencies, floor)

    monkeypatch.setattr(index_module, "_compare_names", counting)
    hits = index.search("Abu Bakr al Bagdadi", threshold=0.8)
    assert {hit.key for hit in hits} >= {"un", "ofac"}
    assert [hit.score for hit in hits if hit.key in ("un", "ofac")] == [hits[0].score] * 2
    assert len(compared) == len(set(compared))  # every distinct name once


def test_a_name_keyed_once_is_indexed_as_when_keyed_afresh():
    # the build reads a name's key hashes from a per-process memo: what it holds is what keying the name gives
    for record in _records(50, seed=11):
        for name in record.names:
            assert (
                index_module._name_key_hashes(name)
                == np.asarray(
                    [index_module._hash(key) for key in index_module._name_keys(name)], dtype=np.int64
                ).tobytes()
            )
    assert index_module._name_key_hashes("  ") == b""
    records = _records(400, seed=12)
    index_module._name_key_hashes.cache_clear()
    cold = NameIndex.build(records)
    warm = NameIndex.build(records)  # every name's hashes from the memo now
    assert index_module._name_key_hashes.cache_info().hits > 0
    assert np.array_equal(cold._postings, warm._postings)
    assert cold._name_texts == warm._name_texts
    assert np.array_equal(cold._parts.ids, warm._parts.ids)
    for query in ("Sipho Dlamini", "S. Nkosi", "Maria Garcia Chen"):
        assert cold.search(query, threshold=0.7) == warm.search(query, threshold=0.7)
