"""The quality gate on rendered cards and selfies: what passes, what fails and what the person is told."""

import pytest

from verification.engine.cards import render_id_card, render_selfie
from verification.engine.quality import QualityLimits
from verification.tests.engine.helpers import OBAMA_CARD


def codes(report) -> list[str]:
    return [issue.code for issue in report.issues]


def test_a_good_card_and_a_good_selfie_pass(local, obama_card, obama_selfie):
    card = local.check_quality(obama_card, role="idFront")
    selfie = local.check_quality(obama_selfie, role="selfie")
    assert card.passed and selfie.passed, (card.issues, selfie.issues)
    assert len(card.faces) == 1 and len(selfie.faces) == 1
    assert (card.width, card.height) == (1000, 630)


def test_the_original_photos_pass_as_selfies(local, obama, obama2, biden):
    for photo in (obama, obama2, biden):
        assert local.check_quality(photo, role="selfie").passed


def test_a_dark_selfie_is_too_dark_and_says_so(local, obama2):
    report = local.check_quality(render_selfie(obama2, brightness=0.3), role="selfie")
    assert codes(report) == ["TOO_DARK"]
    assert report.issues[0].message == "The selfie is too dark: take it facing a light."
    assert report.issues[0].measured < report.issues[0].limit


def test_a_blurred_card_is_blurred(local, obama):
    report = local.check_quality(render_id_card(face=obama, blur=3, **OBAMA_CARD), role="idFront")
    assert codes(report) == ["TOO_BLURRY"]
    assert report.issues[0].message == "The ID photo is blurred: hold the camera still and retake it."


def test_a_blurred_selfie_is_blurred(local, obama2):
    report = local.check_quality(render_selfie(obama2, blur=4), role="selfie")
    assert codes(report) == ["TOO_BLURRY"]
    assert "selfie" in report.issues[0].message


def test_a_mildly_soft_selfie_still_passes(local, obama2):
    assert local.check_quality(render_selfie(obama2, blur=1.0), role="selfie").passed


def test_glare_on_the_card_is_reported(local, obama):
    report = local.check_quality(render_id_card(face=obama, glare=True, **OBAMA_CARD), role="idFront")
    assert codes(report) == ["GLARE"]
    assert report.issues[0].message.startswith("There is glare on the ID photo")


def test_a_card_without_a_portrait_has_no_face(local):
    report = local.check_quality(render_id_card(face=None, **OBAMA_CARD), role="idFront")
    assert codes(report) == ["NO_FACE"]
    assert report.issues[0].message.startswith("No face was found in the ID photo:")


def test_a_selfie_of_two_people_is_refused(local, obama2, biden):
    report = local.check_quality(render_selfie(obama2, extra_face=biden), role="selfie")
    assert "MULTIPLE_FACES" in codes(report)
    issue = report.issues[codes(report).index("MULTIPLE_FACES")]
    assert issue.message == "Two faces were found in the selfie: only you should be in the picture."
    assert len(report.faces) == 2


def test_a_face_too_small_for_a_selfie_is_fine_on_a_card(local, obama_card):
    selfie = local.check_quality(obama_card, role="selfie")  # the card's portrait, held far away
    assert "FACE_TOO_SMALL" in codes(selfie)
    assert "too small" in selfie.issues[codes(selfie).index("FACE_TOO_SMALL")].message
    assert local.check_quality(obama_card, role="idFront").passed


def test_the_back_of_the_card_needs_no_face_but_no_glare(local, obama):
    assert local.check_quality(render_id_card(face=None, **OBAMA_CARD), role="idBack").passed
    report = local.check_quality(render_id_card(face=None, glare=True, **OBAMA_CARD), role="idBack")
    assert codes(report) == ["GLARE"]
    assert "back of the ID" in report.issues[0].message


def test_bytes_that_are_not_an_image_fail_with_not_an_image(local):
    report = local.check_quality(b"hello", role="selfie")
    assert not report.passed
    assert codes(report) == ["NOT_AN_IMAGE"]
    assert "selfie" in report.issues[0].message


@pytest.mark.parametrize("role", ["idFront", "selfie"])
def test_limits_from_the_provider_apply(role, obama_card, obama_selfie):
    from verification.engine.local import LocalProvider

    strict = LocalProvider(limits=QualityLimits(min_face_px_selfie=2000, min_face_px_id=2000))
    image = obama_card if role == "idFront" else obama_selfie
    assert codes(strict.check_quality(image, role=role)) == ["FACE_TOO_SMALL"]


def test_reports_serialise_to_plain_dicts(local, obama_selfie):
    report = local.check_quality(obama_selfie, role="selfie").as_dict()
    assert report["passed"] is True
    assert set(report["faces"][0]) == {"box", "size_px", "sharpness", "brightness", "glare", "detection_score"}
