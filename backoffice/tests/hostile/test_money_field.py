"""MoneyField: every amount of the API, read from the text the client wrote, never through a float."""

from decimal import Decimal

import pytest
from rest_framework import serializers

from backoffice.api.serializers import MoneyField
from backoffice.strictjson import decode


class Amount(serializers.Serializer):
    amount = MoneyField(min_value=Decimal("0.01"), max_value=Decimal("1000000.00"))


def parse(raw: str):
    serializer = Amount(data=decode(('{"amount": ' + raw + "}").encode()))
    if serializer.is_valid():
        return serializer.validated_data["amount"]
    return serializer.errors["amount"][0].code


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("150.25", Decimal("150.25")),
        ("100", Decimal("100.00")),
        ("10.500", Decimal("10.50")),  # two decimals by value
        ('"10.50"', Decimal("10.50")),  # a string holding a plain decimal is accepted (documented)
        ("1000000", Decimal("1000000.00")),
        ("0.01", Decimal("0.01")),
    ],
)
def test_exact_amounts_are_accepted(raw, expected):
    assert parse(raw) == expected


@pytest.mark.parametrize(
    "raw, code",
    [
        ("999999.9999999999999", "max_decimal_places"),  # a float would round it to 1000000.0
        ("0.0099999999999999999", "max_decimal_places"),  # ... and this to 0.01
        ("10.001", "max_decimal_places"),
        ("1e2", "exponent"),
        ("1.5E2", "exponent"),
        ('"1e2"', "invalid"),
        ('"1_000"', "invalid"),
        ('"١٠٠"', "invalid"),  # Arabic-Indic digits: Decimal() would take them
        ('"１００"', "invalid"),  # fullwidth digits
        ('" 100"', "invalid"),
        ('"+100"', "invalid"),
        ('"100."', "invalid"),
        ('".5"', "invalid"),
        ('"NaN"', "invalid"),
        ('"Infinity"', "invalid"),
        ("true", "invalid"),
        ("[100]", "invalid"),
        ("1000000.01", "max_value"),
        ("0", "min_value"),
        ("-5", "min_value"),
        ("1" + "0" * 40, "max_whole_digits"),
    ],
)
def test_inexact_or_odd_amounts_are_refused(raw, code):
    assert parse(raw) == code


def test_the_output_is_a_json_number():
    assert MoneyField().to_representation(Decimal("10.50")) == Decimal("10.50")
