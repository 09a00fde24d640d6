"""The machine-readable zone: ICAO 9303's own specimens, corrupted check digits, OCR noise."""

from datetime import date

import pytest

from verification.engine import mrz
from verification.engine.cards import render_passport

# ICAO 9303 Part 4, Appendix A (TD3) and Part 5, Appendix A (TD1): the specimen of Anna Maria Eriksson
TD3 = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
TD1 = ("I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<")


def test_check_digits_of_the_specimen():
    assert mrz.check_digit("L898902C3") == "6"
    assert mrz.check_digit("740812") == "2"
    assert mrz.check_digit("120415") == "9"
    assert mrz.check_digit("ZE184226B<<<<<") == "1"
    assert mrz.check_digit("<<<<<<") == "0"


def test_the_td3_specimen_is_read_and_every_check_digit_passes():
    found = mrz.find("\n".join(TD3))
    assert found is not None and found.format == "TD3"
    assert found.valid, found.issues
    fields = found.fields
    assert (fields.last_name, fields.first_name) == ("Eriksson", "Anna Maria")
    assert fields.id_number == "L898902C3"
    assert fields.date_of_birth == date(1974, 8, 12)
    assert fields.expiry_date == date(2012, 4, 15)
    assert (fields.sex, fields.nationality) == ("FEMALE", "UTO")
    assert (found.document_type, found.issuing_state, found.optional_data) == ("P", "UTO", "ZE184226B")


def test_the_td1_specimen_is_read_and_every_check_digit_passes():
    found = mrz.find("\n".join(TD1))
    assert found is not None and found.format == "TD1"
    assert found.valid, found.issues
    fields = found.fields
    assert (fields.last_name, fields.first_name, fields.id_number) == ("Eriksson", "Anna Maria", "D23145890")
    assert (fields.date_of_birth, fields.expiry_date) == (date(1974, 8, 12), date(2012, 4, 15))
    assert (fields.sex, fields.nationality) == ("FEMALE", "UTO")


@pytest.mark.parametrize(
    ("position", "digit", "named"),
    [
        (9, "7", "document number"),
        (19, "3", "date of birth"),
        (27, "0", "expiry date"),
        (42, "2", "optional data"),
        (43, "9", "composite"),
    ],
)
def test_each_failing_check_digit_is_named(position, digit, named):
    line2 = TD3[1][:position] + digit + TD3[1][position + 1 :]
    found = mrz.find(f"{TD3[0]}\n{line2}")
    assert found is not None and not found.valid
    assert any(named in issue for issue in found.issues), found.issues
    if named != "composite":  # a field's own digit changed: the composite, computed over it, fails too
        assert len(found.issues) == 2


def test_a_changed_field_fails_its_check_digit_and_the_composite():
    line2 = TD3[1].replace("740812", "740813")
    found = mrz.find(f"{TD3[0]}\n{line2}")
    assert [issue.split(" fails")[0] for issue in found.issues] == [
        "MRZ check digit of the date of birth",
        "MRZ check digit of the whole zone (composite)",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # '<' read as K or «, spaces inserted, O for 0 and I for 1 in the digit fields
        "P<UTOERIKSSON<<ANNA<MARIA<<<<K<<<<<<KK<<<<<<<\nL898902C36UTO74O8122F12O4I59ZE184226B<<<<<1O",
        "P«UTOERIKSSON««ANNA«MARIA«««««««««««««««««««\nL898902C36UTO7408122F1204159ZE184226B«««««10",
        "P<UTO ERIKSSON<<ANNA<MARIA <<<<<<<<<<<<<<<<<<<\nL898902C3 6UTO 7408122F 1204159 ZE184226B<<<<< 10",
        # a filler dropped or added at the end of the name line
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10",
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10",
        # the zone among other text
        "PASSPORT\nSurname ERIKSSON\n" + "\n".join(TD3) + "\n",
    ],
)
def test_noisy_readings_of_the_specimen_still_pass(text):
    found = mrz.find(text)
    assert found is not None and found.valid, found and found.issues
    assert (found.fields.last_name, found.fields.first_name) == ("Eriksson", "Anna Maria")
    assert found.fields.date_of_birth == date(1974, 8, 12)


def test_a_name_ending_in_k_keeps_its_k():
    line1 = "P<UTOERIK<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<<<<<"
    found = mrz.find(f"{line1}\n{TD3[1]}")
    assert (found.fields.last_name, found.fields.first_name) == ("Erik", "Anna")


def test_a_document_number_with_o_for_zero_is_repaired_only_when_that_passes():
    line2 = "L8989O2C36" + TD3[1][10:]
    found = mrz.find(f"{TD3[0]}\n{line2}")
    assert found.valid and found.fields.id_number == "L898902C3"


def test_text_without_a_zone():
    assert mrz.find("Surname OBAMA\nForenames BARACK\nPersonal ID No. 6108041234567") is None
    assert not mrz.is_mrz_line("Surname OBAMA")
    assert mrz.is_mrz_line(TD3[0]) and mrz.is_mrz_line(TD1[1])


# ------------------------------------------------------------------ a rendered passport page, read end to end

PASSPORT = {
    "face": None,
    "first_name": "Sipho Mandla",
    "last_name": "Dlamini",
    "passport_number": "E1234567",
    "date_of_birth": date(1980, 2, 1),
    "sex": "M",
    "nationality": "SWZ",
    "expiry_date": date(2031, 3, 14),
}


def test_make_td3_reproduces_the_icao_specimen():
    assert TD3 == mrz.make_td3(
        surname="Eriksson",
        given_names="Anna Maria",
        document_number="L898902C3",
        nationality="UTO",
        date_of_birth=date(1974, 8, 12),
        sex="F",
        expiry_date=date(2012, 4, 15),
        optional_data="ZE184226B",
    )


def test_a_rendered_passport_is_read_through_its_zone(local):
    result = local.extract_text(render_passport(**PASSPORT))
    fields = result.fields
    assert (fields.first_name, fields.last_name, fields.id_number) == ("Sipho Mandla", "Dlamini", "E1234567")
    assert (fields.date_of_birth, fields.expiry_date) == (date(1980, 2, 1), date(2031, 3, 14))
    assert (fields.sex, fields.nationality) == ("MALE", "SWZ")
    assert result.complete
    assert not [issue for issue in result.issues if "idNumber" in issue or "fails" in issue or "not used" in issue]


def test_the_zone_wins_over_the_visual_zone_and_says_so(local):
    # the printed date of birth is wrong; the zone's, covered by its check digit, is taken
    result = local.extract_text(render_passport(**PASSPORT, visual={"Date of birth": "02.01.1980"}))
    assert result.fields.date_of_birth == date(1980, 2, 1)
    assert any(issue.startswith("dateOfBirth: the visual zone reads 1980-01-02") for issue in result.issues)


def test_a_zone_with_a_wrong_check_digit_is_not_used(local):
    line1, line2 = mrz.make_td3(
        surname="Dlamini",
        given_names="Sipho Mandla",
        document_number="E1234567",
        nationality="SWZ",
        date_of_birth=date(1980, 2, 1),
        sex="M",
        expiry_date=date(2031, 3, 14),
    )
    corrupted = line2[:13] + "800102" + line2[19:]  # day and month swapped, the check digit left as it was
    result = local.extract_text(
        render_passport(**PASSPORT, visual={"Passport No.": "E1234567"}, mrz_lines=(line1, corrupted))
    )
    assert "MRZ not used" in result.issues
    assert any("check digit of the date of birth fails" in issue for issue in result.issues)
    assert result.fields.date_of_birth == date(1980, 2, 1)  # the visual zone's
