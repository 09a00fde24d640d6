"""The ID-card parser on text, as OCR gives it: layouts, date formats, noise."""

from datetime import date

import pytest

from verification.engine.id_fields import clean_name, parse_date, parse_id_number, parse_text

ESWATINI = """KINGDOM OF ESWATINI
NATIONAL IDENTITY CARD
Surname DLAMINI
Forenames SIPHO BHEKI
Personal ID No. 8002015123087
Date of Birth 01.02.1980
Sex M
Nationality SWAZI
Date of Expiry 31.12.2029
"""


def test_an_eswatini_card_is_read_completely():
    parsed = parse_text(ESWATINI)
    fields = parsed.fields
    assert (fields.first_name, fields.last_name) == ("Sipho Bheki", "Dlamini")
    assert fields.id_number == "8002015123087"
    assert fields.date_of_birth == date(1980, 2, 1)
    assert (fields.sex, fields.nationality) == ("MALE", "SWAZI")
    assert fields.expiry_date == date(2029, 12, 31)
    assert parsed.complete and parsed.issues == []
    assert parsed.extracted == (
        "firstName", "lastName", "idNumber", "dateOfBirth", "sex", "nationality", "expiryDate",
    )  # fmt: skip


def test_a_card_without_expiry_is_complete_without_an_issue():
    parsed = parse_text(ESWATINI.replace("Date of Expiry 31.12.2029\n", ""))
    assert parsed.fields.expiry_date is None
    assert parsed.complete and parsed.issues == []


def test_labels_with_colons_and_values_on_the_next_line():
    parsed = parse_text("Surname:\nNKOSI\nFirst name:\nThandeka\nID No:\n9105120456089\nDOB:\n1991-05-12\nGender: F")
    fields = parsed.fields
    assert (fields.first_name, fields.last_name, fields.id_number) == ("Thandeka", "Nkosi", "9105120456089")
    assert (fields.date_of_birth, fields.sex) == (date(1991, 5, 12), "FEMALE")


def test_several_labels_on_a_line_take_the_next_lines_values_in_order():
    parsed = parse_text(
        "SURNAME\nMAMBA\nNAMES\nLINDIWE\nPIN DOB\n7707070123456 07 JUL 1977\nSEX NATIONALITY\nFEMALE SWAZI"
    )
    fields = parsed.fields
    assert fields.id_number == "7707070123456"
    assert fields.date_of_birth == date(1977, 7, 7)
    assert (fields.sex, fields.nationality) == ("FEMALE", "SWAZI")


def test_ocr_noise_in_digits_and_stray_punctuation_is_cleaned():
    parsed = parse_text(
        "| Surname : OBAMA.\nForenames ; BARACK\nID No 61O8O4l234S67\nDate of Birth O4/08/l961\nSex | M"
    )
    fields = parsed.fields
    assert (fields.first_name, fields.last_name) == ("Barack", "Obama")
    assert fields.id_number == "6108041234567"
    assert fields.date_of_birth == date(1961, 8, 4)
    assert fields.sex == "MALE"


def test_a_misread_long_label_is_still_recognised():
    parsed = parse_text("Sumame SHONGWE\nForenarnes NOMSA\nDate of Birtn 02.03.1990")
    assert (parsed.fields.last_name, parsed.fields.first_name) == ("Shongwe", "Nomsa")
    assert parsed.fields.date_of_birth == date(1990, 3, 2)


def test_an_id_number_of_another_length_is_kept_with_an_issue():
    parsed = parse_text("Surname X\nNames Y\nID No 800201512308\nDOB 01.02.1980")
    assert parsed.fields.id_number == "800201512308"
    assert parsed.issues == ["idNumber has 12 digits, expected 13"]
    assert parsed.complete


def test_missing_fields_are_listed():
    parsed = parse_text("Surname DLAMINI\nSex M")
    assert not parsed.complete
    assert parsed.issues == ["firstName not found", "idNumber not found", "dateOfBirth not found"]


def test_spaced_id_numbers_are_joined():
    assert parse_id_number("800201 5123 087") == "8002015123087"
    assert parse_id_number("8002-015-123-087") == "8002015123087"


@pytest.mark.parametrize(
    "text",
    ["04.08.1961", "04/08/1961", "1961-08-04", "04 AUG 1961", "4 August 1961", "04-Aug-1961", "O4.O8.I96l"],
)
def test_dates_in_the_formats_cards_print(text):
    assert parse_date(text) == date(1961, 8, 4)


@pytest.mark.parametrize("text", ["", "31.02.1980", "hello", "1961"])
def test_impossible_or_partial_dates_are_none(text):
    assert parse_date(text) is None


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("JOSÉ-MARÍA", "José-María"),
        ("O'NEIL", "O'Neil"),
        ("van der MERWE", "Van Der Merwe"),
        ("ZOË  ", "Zoë"),
        ("-NKOSI.", "Nkosi"),
        ("THANDI 1", "Thandi"),
    ],
)
def test_names_are_title_cased_with_accents_hyphens_and_apostrophes(raw, clean):
    assert clean_name(raw) == clean


def test_labels_glued_to_their_values_or_without_their_spaces():
    # as RapidOCR writes a card when it drops spaces
    parsed = parse_text(
        "SurnameDLAMINI\nNames:SIPHO MANDLA\nIDNo:8506150123084\nDateofBirth 15.06.1985\nSex F\nDateofExpiry 30NOV2031"
    )
    fields = parsed.fields
    assert (fields.last_name, fields.first_name, fields.id_number) == ("Dlamini", "Sipho Mandla", "8506150123084")
    assert (fields.date_of_birth, fields.sex, fields.expiry_date) == (date(1985, 6, 15), "FEMALE", date(2031, 11, 30))
    assert parse_text("PIN6108041234567").fields.id_number == "6108041234567"


def test_a_name_that_starts_like_a_label_is_not_split():
    fields = parse_text("Surname Pinto\nForenames Pinky Sexton").fields
    assert (fields.last_name, fields.first_name) == ("Pinto", "Pinky Sexton")


def test_a_label_with_a_space_dropped_inside_it():
    fields = parse_text("Date ofBirth 23.08.1998\nDateof Expiry 15.05.2035").fields
    assert (fields.date_of_birth, fields.expiry_date) == (date(1998, 8, 23), date(2035, 5, 15))


def test_a_stray_mark_between_a_pin_and_a_date_belongs_to_neither():
    # RapidOCR on a dark stacked card: the bar between the two columns read as "1"
    fields = parse_text("PIN DOB\n5561304451669 1 14JUN 1949").fields
    assert (fields.id_number, fields.date_of_birth) == ("5561304451669", date(1949, 6, 14))
    assert parse_text("ID No 3212233079244 1").fields.id_number == "3212233079244"
