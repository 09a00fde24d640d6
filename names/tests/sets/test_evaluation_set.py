"""The name-matching evaluation (bench/names/evaluation.py): real names of eleven regions, variations made by
rule. The stored pairs are what the seeded procedure gives, and the matcher keeps the issue's targets on them
in every region (F1 at least 0.85 with precision at least 0.90), Southern African names included: a change
that gains elsewhere by losing local names fails here."""

import pytest

from bench.names import evaluation

THRESHOLD = 0.8


@pytest.fixture(scope="module")
def scored():
    return evaluation.score(evaluation.load(), THRESHOLD)


def test_the_stored_pairs_are_what_the_procedure_gives():
    assert evaluation.OUTPUT.read_text(encoding="utf-8") == evaluation.as_csv(evaluation.generate())


def _figures(rows):
    tp, fp, fn, _ = evaluation._figures(rows, THRESHOLD)
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return precision, recall, 2 * precision * recall / (precision + recall)


@pytest.mark.parametrize("region", sorted(evaluation.REGIONS))
def test_every_region_meets_the_targets(scored, region):
    precision, recall, f1 = _figures([row for row in scored if row["region"] == region])
    assert precision >= 0.90 and f1 >= 0.85, (region, precision, recall, f1)


def test_the_set_holds_positives_and_negatives_of_every_region():
    rows = evaluation.load()
    for region in evaluation.REGIONS:
        labels = [row["label"] for row in rows if row["region"] == region]
        assert labels.count(1) > 250 and labels.count(0) > 200, region


def test_local_names_and_a_slip_in_every_part_keep_their_recall(scored):
    # matcher 1.3.0: Southern African recall 0.980 (1.2.0: 0.960), a slip in every part 0.995 (1.2.0: 0.947);
    # a change that loses local names to gain elsewhere fails here
    local = [row for row in scored if row["region"] in evaluation.SOUTHERN_AFRICA]
    precision, recall, _ = _figures(local)
    assert recall >= 0.975 and precision >= 0.975, (precision, recall)
    each = [row for row in scored if row["category"] == "typo_each"]
    assert sum(row["score"] >= THRESHOLD for row in each) / len(each) >= 0.99
