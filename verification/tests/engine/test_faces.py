"""Face comparison with dlib's models, and the mapping from distance to similarity."""

import pytest

from verification.engine.cards import render_id_card
from verification.engine.errors import FaceComparisonFailed
from verification.engine.providers import SIMILARITY_BREAKPOINTS, face_distance_to_similarity
from verification.tests.engine.helpers import OBAMA_CARD


def test_the_same_person_on_the_card_and_in_the_selfie_is_approved(local, obama_card, obama_selfie):
    result = local.compare_faces(obama_card, obama_selfie)
    assert result.similarity >= 80
    assert result.distance < 0.5
    assert result.confidence > 50
    assert result.source_face.size_px < result.target_face.size_px  # the card's portrait is the smaller face
    assert len(result.source_embedding) == len(result.target_embedding) == 128


def test_different_people_are_rejected(local, obama_card, biden_selfie):
    result = local.compare_faces(obama_card, biden_selfie)
    assert result.similarity < 60
    assert result.distance > 0.62


def test_a_card_without_a_portrait_fails_naming_the_id_photo(local, obama_selfie):
    card = render_id_card(face=None, **OBAMA_CARD)
    with pytest.raises(FaceComparisonFailed, match="no face was found in the ID photo"):
        local.compare_faces(card, obama_selfie)


def test_a_selfie_without_a_face_fails_naming_the_selfie(local, obama_card):
    blank = render_id_card(face=None, **OBAMA_CARD)
    with pytest.raises(FaceComparisonFailed, match="no face was found in the selfie"):
        local.compare_faces(obama_card, blank)


def test_bytes_that_are_not_an_image_fail_the_comparison(local, obama_selfie):
    with pytest.raises(FaceComparisonFailed, match="ID photo"):
        local.compare_faces(b"not an image", obama_selfie)


def test_embed_face_gives_the_descriptor_of_the_largest_face(local, obama, obama2, biden):
    import numpy as np

    first, second, other = (np.array(local.embed_face(photo)) for photo in (obama, obama2, biden))
    assert first.shape == (128,)
    assert np.linalg.norm(first - second) < np.linalg.norm(first - other)
    assert local.embed_face(render_id_card(face=None, **OBAMA_CARD)) is None
    assert local.embed_face(b"junk") is None


def test_the_comparison_serialises_without_embeddings(local, obama_card, obama_selfie):
    data = local.compare_faces(obama_card, obama_selfie).as_dict()
    assert set(data) == {"similarity", "confidence", "distance", "source_face", "target_face"}


@pytest.mark.parametrize(
    ("distance", "similarity"),
    [(0.0, 100.0), (0.25, 90.0), (0.50, 80.0), (0.56, 70.0), (0.62, 60.0), (0.81, 30.0), (1.0, 0.0), (1.7, 0.0)],
)
def test_the_similarity_mapping_passes_through_its_breakpoints(distance, similarity):
    assert face_distance_to_similarity(distance) == pytest.approx(similarity)


def test_the_decision_bands_fall_at_the_documented_distances():
    assert face_distance_to_similarity(0.50) >= 80 > face_distance_to_similarity(0.501)
    assert 60 <= face_distance_to_similarity(0.62) < 80
    assert face_distance_to_similarity(0.621) < 60
    assert SIMILARITY_BREAKPOINTS[0] == (0.0, 100.0) and SIMILARITY_BREAKPOINTS[-1] == (1.0, 0.0)


def test_the_similarity_falls_monotonically_with_the_distance():
    values = [face_distance_to_similarity(step / 1000) for step in range(0, 1500)]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    assert face_distance_to_similarity(-0.1) == 100.0
    assert face_distance_to_similarity(float("nan")) == 0.0


def test_concurrent_comparisons_give_the_same_answer(local, obama_card, obama_selfie):
    from concurrent.futures import ThreadPoolExecutor

    expected = local.compare_faces(obama_card, obama_selfie).distance
    with ThreadPoolExecutor(max_workers=4) as pool:
        distances = list(pool.map(lambda _: local.compare_faces(obama_card, obama_selfie).distance, range(4)))
    assert distances == pytest.approx([expected] * 4, abs=1e-6)
