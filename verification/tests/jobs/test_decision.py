"""The decision rule on its own: bands of similarity, the document, the card against the profile, duplicates."""

import datetime as dt

import pytest

from verification.decision import CardFacts, ProfileFacts, decide, quality_rejection

TODAY = dt.date(2026, 11, 23)
CARD = CardFacts(
    first_name="Sipho",
    last_name="Dlamini",
    id_number="9001015800085",
    date_of_birth=dt.date(1990, 1, 1),
    expiry_date=dt.date(2031, 1, 1),
    complete=True,
)


def exact_names(a: str, b: str) -> tuple[bool, float]:
    return a.lower() == b.lower(), 1.0 if a.lower() == b.lower() else 0.0


SIPHO = ProfileFacts(first_name="Sipho", last_name="Dlamini")


def run(similarity=92.0, card=CARD, profile=SIPHO, duplicates=0):
    return decide(
        card=card, profile=profile, similarity=similarity, duplicates=duplicates, today=TODAY, names_agree=exact_names
    )


@pytest.mark.parametrize(
    "similarity,decision",
    [
        (100, "approved"),
        (80, "approved"),
        (79.9, "manual_review"),
        (60, "manual_review"),
        (59.9, "rejected"),
        (0, "rejected"),
    ],
)
def test_the_interfaces_bands_of_face_similarity(similarity, decision):
    assert run(similarity).decision == decision


def test_a_rejection_by_face_says_so_in_words():
    outcome = run(35)
    assert outcome.rejection_code == "FACE_MISMATCH"
    assert outcome.reason.startswith(
        "The face in the selfie does not match the photo on the ID document (similarity 35%"
    )


def test_an_expired_document_rejects_even_with_a_perfect_face():
    outcome = run(99, card=CardFacts(**{**CARD.__dict__, "expiry_date": dt.date(2026, 11, 22)}))
    assert (outcome.decision, outcome.rejection_code) == ("rejected", "DOCUMENT_EXPIRED")
    assert "expired on 2026-11-22" in outcome.reason


def test_a_card_without_an_expiry_date_is_accepted():
    outcome = run(card=CardFacts(**{**CARD.__dict__, "expiry_date": None}))
    assert outcome.decision == "approved"
    assert ("document_valid", True, "The card carries no expiry date") in [
        (c.name, c.passed, c.detail) for c in outcome.checks
    ]


def test_a_field_that_disagrees_with_the_profile_goes_to_a_person():
    profile = ProfileFacts(first_name="Sipho", last_name="Dlamini", date_of_birth=dt.date(1991, 1, 1))
    outcome = run(profile=profile)
    assert outcome.decision == "manual_review"
    assert any(
        "date of birth on the card (1990-01-01) differs from the profile (1991-01-01)" in r
        for r in outcome.review_reasons
    )


def test_the_id_number_is_compared_by_its_characters_only():
    assert run(profile=ProfileFacts(id_number="９００１ ０１５８-０００８５")).decision == "approved"
    assert run(profile=ProfileFacts(id_number="900101 5800085")).decision == "approved"
    assert run(profile=ProfileFacts(id_number="9001015800086")).decision == "manual_review"


def test_profile_fields_that_are_empty_are_not_checked():
    outcome = run(profile=ProfileFacts())
    assert outcome.decision == "approved"
    assert {c.name: c.passed for c in outcome.checks}["id_number_matches_profile"] is None


def test_an_unreadable_card_goes_to_a_person():
    outcome = run(card=CardFacts(**{**CARD.__dict__, "complete": False, "id_number": ""}))
    assert outcome.decision == "manual_review"


def test_a_possible_duplicate_is_never_approved_automatically():
    assert run(duplicates=1).decision == "manual_review"


def test_a_quality_rejection_carries_the_users_next_step():
    outcome = quality_rejection(["The selfie is too dark: take it facing a light."])
    assert (outcome.decision, outcome.rejection_code) == ("rejected", "IMAGE_QUALITY")
    assert outcome.reason == "The selfie is too dark: take it facing a light."


@pytest.mark.parametrize(
    ("similarity", "band"),
    [(80.0, "approved"), (79.9, "manual_review"), (60.0, "manual_review"), (59.9, "rejected")],
)
def test_the_face_bands_are_written_once_and_both_callers_read_them(similarity, band):
    from verification.api.serializers import face_comparison_out
    from verification.decision import Thresholds, face_band

    assert face_band(similarity, Thresholds()).value == band

    class Result:
        def __init__(self, similarity):
            self.similarity, self.confidence = similarity, 99.0

        def as_dict(self):
            return {}

    answer = face_comparison_out(Result(similarity), quality={}, threshold=80.0, approve_at=80.0, review_at=60.0)
    assert answer["decision"] == band
