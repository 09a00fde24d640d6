"""The case-work settings are parsed strictly: SLA hours, SAR filing days, the credit approval threshold."""

from decimal import Decimal

import pytest
from django.core.exceptions import ImproperlyConfigured

from backoffice import env
from backoffice.tests.envcheck import manage_check


@pytest.mark.parametrize("raw,expected", [("5000", Decimal("5000")), ("2500.50", Decimal("2500.50")), ("", None)])
def test_env_decimal_reads_amounts(monkeypatch, raw, expected):
    monkeypatch.setenv("X_AMOUNT", raw)
    assert env.env_decimal("X_AMOUNT", None) == expected


@pytest.mark.parametrize("raw", ["lots", "1.005", "-5", "NaN", "Infinity", "1e3x"])
def test_env_decimal_refuses_anything_else(monkeypatch, raw):
    monkeypatch.setenv("X_AMOUNT", raw)
    with pytest.raises(ImproperlyConfigured, match="X_AMOUNT"):
        env.env_decimal("X_AMOUNT", None, minimum=Decimal("0"))


@pytest.mark.parametrize(
    "variable,value",
    [
        ("ALERT_SLA_HOURS", "CRITICAL=soon"),
        ("ALERT_SLA_HOURS", "CRITICAL=0"),
        ("ALERT_SLA_HOURS", "SEVERE=12"),
        ("SAR_FILING_DAYS", "0"),
        ("CREDIT_APPROVAL_THRESHOLD", "five thousand"),
    ],
)
def test_a_bad_case_work_setting_stops_start_up(variable, value):
    result = manage_check(ENVIRONMENT="development", **{variable: value})
    assert result.returncode != 0 and variable in result.stderr
