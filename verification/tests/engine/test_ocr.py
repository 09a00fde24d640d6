"""Tesseract on rendered cards: every layout, date format and kind of name the parser knows."""

from datetime import date

import pytest
from anyascii import anyascii

from verification.engine import ocr
from verification.engine.cards import LAYOUTS, render_id_card
from verification.engine.errors import OcrFailed


def _card(layout: str, **overrides) -> bytes:
    values = {
        "face": None,
        "first_name": "Nomvula Zanele",
        "last_name": "Dlamini-Shongwe",
        "id_number": "8506150123084",
        "date_of_birth": date(1985, 6, 15),
        "sex": "F",
        "nationality": "SWAZI",
        "expiry_date": date(2031, 11, 30),
        "layout": layout,
    }
    values.update(overrides)
    return render_id_card(**values)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_is_read_completely(local, layout):
    result = local.extract_text(_card(layout))
    fields = result.fields
    assert (fields.first_name, fields.last_name) == ("Nomvula Zanele", "Dlamini-Shongwe")
    assert fields.id_number == "8506150123084"
    assert fields.date_of_birth == date(1985, 6, 15)
    assert (fields.sex, fields.nationality, fields.expiry_date) == ("FEMALE", "SWAZI", date(2031, 11, 30))
    assert result.complete and result.issues == ()
    assert len(result.extracted_fields) == 7
    assert 60 <= result.confidence <= 100
    assert set(result.field_confidence) == set(result.extracted_fields)


def test_a_card_without_expiry_is_complete(local, obama):
    result = local.extract_text(_card("eswatini", face=obama, expiry_date=None))
    assert result.fields.expiry_date is None
    assert "expiryDate" not in result.extracted_fields
    assert result.complete and result.issues == ()


def test_apostrophes_and_accents_survive_up_to_tesseracts_alphabet(local):
    result = local.extract_text(_card("generic", first_name="Zoë", last_name="O'Neil"))
    assert result.fields.last_name == "O'Neil"
    # tesseract's English model may drop the diaeresis; the letters must still be right
    assert anyascii(result.fields.first_name) == "Zoe"


def test_a_mildly_blurred_dim_card_is_still_read(local):
    result = local.extract_text(_card("eswatini", blur=1.0, brightness=0.8))
    assert result.fields.id_number == "8506150123084"
    assert result.complete


def test_the_back_fills_what_the_front_lacks_and_the_front_wins(local):
    front = render_id_card(
        face=None, first_name="Sipho", last_name="Dlamini", id_number="8002015123087",
        date_of_birth=date(1980, 2, 1), sex="M", expiry_date=None, layout="generic",
    )  # fmt: skip
    back = _card("eswatini")  # another person's data, with an expiry date
    result = local.extract_text(front, back)
    assert (result.fields.first_name, result.fields.id_number) == ("Sipho", "8002015123087")
    assert result.fields.expiry_date == date(2031, 11, 30)


def test_an_ocr_result_serialises_dates_as_iso(local):
    data = local.extract_text(_card("stacked")).as_dict()
    assert data["fields"]["date_of_birth"] == "1985-06-15"
    assert data["fields"]["expiry_date"] == "2031-11-30"


def test_a_missing_tesseract_is_an_ocr_failure(monkeypatch):
    import pytesseract

    from verification.engine.local import LocalProvider

    # tesseract asked for by name (VERIFICATION_OCR_ENGINE=tesseract) on a machine without it
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(OcrFailed, match="^OCR extraction failed: "):
        LocalProvider(ocr_engine="tesseract").extract_text(_card("generic"))


def test_bytes_that_are_not_an_image_are_an_ocr_failure(local):
    with pytest.raises(OcrFailed, match="front of the ID"):
        local.extract_text(b"not an image")


def test_small_photos_are_upscaled_before_reading():
    from PIL import Image

    assert max(ocr.prepare(Image.new("RGB", (500, 315))).size) == ocr.MIN_LONGEST_SIDE
    assert ocr.prepare(Image.new("RGB", (2000, 1260))).size == (2000, 1260)


@pytest.mark.parametrize("angle", [-4.0, -1.5, 2.5, 4.0])
def test_the_skew_of_a_turned_photo_is_measured(angle):
    from PIL import Image, ImageOps

    from verification.engine.images import load_image

    card = load_image(_card("eswatini")).rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=(90, 90, 90))
    estimate = ocr.skew_angle(ImageOps.autocontrast(card.convert("L"), cutoff=1))
    assert abs(estimate - angle) <= ocr.SKEW_STEP_DEGREES


def test_a_turned_dark_compressed_card_is_still_read(local):
    import io

    from PIL import Image, ImageEnhance

    from verification.engine.images import load_image

    card = load_image(_card("stacked")).rotate(-3.5, resample=Image.Resampling.BICUBIC, fillcolor=(90, 90, 90))
    card = ImageEnhance.Brightness(card).enhance(0.5)
    out = io.BytesIO()
    card.save(out, "JPEG", quality=40)
    fields = local.extract_text(out.getvalue()).fields
    assert (fields.last_name, fields.id_number, fields.date_of_birth) == (
        "Dlamini-Shongwe",
        "8506150123084",
        date(1985, 6, 15),
    )
