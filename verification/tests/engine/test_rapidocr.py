"""RapidOCR as the local provider's OCR engine: the same rendered cards as tesseract, and the engine choice."""

from datetime import date

import numpy as np
import pytest

from verification.engine import ocr
from verification.engine.cards import LAYOUTS, render_id_card, render_passport
from verification.engine.local import LocalProvider

pytest.importorskip("rapidocr_onnxruntime")


@pytest.fixture(scope="module")
def rapid() -> LocalProvider:
    return LocalProvider(ocr_engine="rapidocr")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_is_read_completely(rapid, layout):
    card = render_id_card(
        face=None,
        first_name="Sipho Mandla",
        last_name="Dlamini-Shongwe",
        id_number="8506150123084",
        date_of_birth=date(1985, 6, 15),
        sex="F",
        nationality="SWAZI",
        expiry_date=date(2031, 11, 30),
        layout=layout,
    )
    result = rapid.extract_text(card)
    fields = result.fields
    assert (fields.first_name, fields.last_name) == ("Sipho Mandla", "Dlamini-Shongwe")
    assert (fields.id_number, fields.date_of_birth, fields.expiry_date) == (
        "8506150123084",
        date(1985, 6, 15),
        date(2031, 11, 30),
    )
    assert (fields.sex, fields.nationality) == ("FEMALE", "SWAZI")
    assert result.complete and 50 < result.confidence <= 100


def test_a_passport_is_read_through_its_zone(rapid):
    page = render_passport(
        face=None,
        first_name="Anna Maria",
        last_name="Eriksson",
        passport_number="L898902C3",
        date_of_birth=date(1974, 8, 12),
        sex="F",
        nationality="UTO",
        expiry_date=date(2032, 4, 15),
    )
    result = rapid.extract_text(page)
    assert "MRZ not used" not in result.issues, result.raw_text
    assert (result.fields.id_number, result.fields.date_of_birth) == ("L898902C3", date(1974, 8, 12))


def test_spaces_are_restored_from_the_gaps_between_letters():
    # a segment "AB CD" drawn as ink columns: letters 10 px wide 2 px apart, a 12 px gap between the words
    grey = np.full((30, 80), 255, dtype=np.uint8)
    for left in (2, 14, 38, 50):
        grey[5:25, left : left + 10] = 0
    box = [[0, 0], [79, 0], [79, 29], [0, 29]]
    char_boxes = [[[x, 0], [x + 10, 0], [x + 10, 29], [x, 29]] for x in (2, 14, 38, 50)]
    assert ocr.restore_spaces(grey, box, "ABCD", char_boxes) == "AB CD"
    assert ocr.restore_spaces(grey, box, "AB CD"[:2] + "CD", char_boxes) == "AB CD"


def test_the_engine_setting(monkeypatch):
    assert ocr.engine_name("tesseract") == "tesseract"
    assert ocr.engine_name("RapidOCR") == "rapidocr"
    monkeypatch.setattr(ocr.shutil, "which", lambda name: None)
    assert ocr.engine_name("auto") == "rapidocr"  # a machine without the Debian package
    monkeypatch.setattr(ocr.shutil, "which", lambda name: "/usr/bin/tesseract")
    assert ocr.engine_name("auto") == "tesseract"
    with pytest.raises(ValueError):
        ocr.engine_name("easyocr")


def test_the_engine_in_use_is_recorded(settings):
    from verification.engine.providers import get_provider

    settings.VERIFICATION_OCR_ENGINE = "rapidocr"
    versions = get_provider("local").versions()
    assert versions["ocr_engine"] == "rapidocr" and versions["rapidocr_onnxruntime"] == "1.4.4"
    settings.VERIFICATION_OCR_ENGINE = "tesseract"
    versions = get_provider("local").versions()
    assert versions["ocr_engine"] == "tesseract" and "tesseract" in versions
