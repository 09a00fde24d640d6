"""Settings from the environment are parsed strictly: a bad value stops start-up."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from backoffice import env
from backoffice.tests.envcheck import manage_check


@pytest.mark.parametrize("raw,expected", [("true", True), ("1", True), ("FALSE", False), ("0", False), ("", True)])
def test_env_bool_accepts_clear_values(monkeypatch, raw, expected):
    monkeypatch.setenv("X_FLAG", raw)
    assert env.env_bool("X_FLAG", True) is expected


@pytest.mark.parametrize(
    "reader,raw",
    [
        (lambda: env.env_bool("X_VAL", False), "maybe"),
        (lambda: env.env_int("X_VAL", 1), "ten"),
        (lambda: env.env_int("X_VAL", 1, minimum=0), "-1"),
        (lambda: env.env_rate("X_VAL", "10/m"), "10 per minute"),
        (lambda: env.env_rate("X_VAL", "10/m"), "0/m"),
        (lambda: env.env_choice("X_VAL", "a", {"a", "b"}), "c"),
        (lambda: env.env_float("X_VAL", None, minimum=0.0, maximum=1.0), "high"),
        (lambda: env.env_float("X_VAL", None, minimum=0.0, maximum=1.0), "1.5"),
        (lambda: env.env_float("X_VAL", None, minimum=0.0, maximum=1.0), "-0.1"),
        (lambda: env.env_float("X_VAL", None), "nan"),
    ],
)
def test_bad_values_are_refused_with_the_variable_named(monkeypatch, reader, raw):
    monkeypatch.setenv("X_VAL", raw)
    with pytest.raises(ImproperlyConfigured, match="X_VAL"):
        reader()


@pytest.mark.parametrize("raw,expected", [("0.75", 0.75), (" 1 ", 1.0), ("0", 0.0), ("", None)])
def test_env_float_reads_numbers(monkeypatch, raw, expected):
    monkeypatch.setenv("X_NUM", raw)
    assert env.env_float("X_NUM", None, minimum=0.0, maximum=1.0) == expected


def test_production_refuses_the_default_secret():
    result = manage_check(ENVIRONMENT="production")
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


def test_a_bad_rate_limit_stops_start_up():
    result = manage_check(ENVIRONMENT="development", RATE_LIMIT_AUTH="lots")
    assert result.returncode != 0 and "RATE_LIMIT_AUTH" in result.stderr


def test_a_bad_database_url_stops_start_up():
    result = manage_check(ENVIRONMENT="development", DATABASE_URL="mysql://nope")
    assert result.returncode != 0 and "DATABASE_URL" in result.stderr


def test_a_pep_match_threshold_outside_0_to_1_stops_start_up():
    result = manage_check(ENVIRONMENT="development", PEP_MATCH_THRESHOLD="80")
    assert result.returncode != 0 and "PEP_MATCH_THRESHOLD" in result.stderr
