"""One normalisation of ID numbers (``kyc.identity.id_number_key``)."""

import pytest

from kyc.identity import id_number_key


@pytest.mark.parametrize(
    "written",
    [
        "9001015800085",
        " 9001 0158-00085 ",
        "9001.0158/00085",
        "９００１０１５８０００８５",
        "9001\u00a00158\u200b00085",
    ],
)
def test_spellings_of_one_number_are_one_key(written):
    assert id_number_key(written) == "9001015800085"


def test_letters_count_in_upper_case_and_other_scripts_do_not():
    assert id_number_key("ab-123 456") == "AB123456"
    assert id_number_key("Ω-12") == "12"


@pytest.mark.parametrize("empty", [None, "", "  ", "--/"])
def test_no_letters_or_digits_is_no_number(empty):
    assert id_number_key(empty) == ""


def test_the_key_fits_its_column():
    assert len(id_number_key("1" * 40)) == 32
