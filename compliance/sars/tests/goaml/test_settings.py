"""The goAML code lists come from the environment, strictly: a typo stops start-up instead of filing bad codes."""

import datetime as dt
import os

import pytest
from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_map

DEFAULT = {"structuring": "STRUCT", "fraud": "FRAUD"}


def test_an_unset_map_is_the_default(monkeypatch):
    monkeypatch.delenv("GOAML_INDICATORS", raising=False)
    assert env_map("GOAML_INDICATORS", DEFAULT, keys=set(DEFAULT)) == DEFAULT


def test_pairs_override_the_default_key_by_key(monkeypatch):
    monkeypatch.setenv("GOAML_INDICATORS", " fraud = F01 ,")
    assert env_map("GOAML_INDICATORS", DEFAULT, keys=set(DEFAULT)) == {"structuring": "STRUCT", "fraud": "F01"}


@pytest.mark.parametrize("raw", ["fraud", "fraud=", "=F01", "frawd=F01"])
def test_a_malformed_pair_or_unknown_key_is_refused(monkeypatch, raw):
    monkeypatch.setenv("GOAML_INDICATORS", raw)
    with pytest.raises(ImproperlyConfigured, match="GOAML_INDICATORS"):
        env_map("GOAML_INDICATORS", DEFAULT, keys=set(DEFAULT))


def test_every_activity_type_and_channel_has_a_default_code():
    from compliance.sars.choices import ActivityType
    from compliance.sars.goaml import code_list
    from kyc.choices import Channel

    assert set(code_list("GOAML_INDICATORS")) == set(ActivityType.values)
    assert set(code_list("GOAML_TRANSMODE_CODES")) == set(Channel.values) == set(code_list("GOAML_FUNDS_CODES"))


def test_a_setting_overrides_one_code_and_keeps_the_other_defaults(settings):
    from compliance.sars.goaml import code_list

    settings.GOAML_INDICATORS = {"fraud": "F01"}
    codes = code_list("GOAML_INDICATORS")
    assert codes["fraud"] == "F01" and codes["structuring"] == "STRUCT"


def test_an_unknown_activity_type_in_the_setting_stops_start_up(settings):
    from compliance.sars.goaml import check_settings

    settings.GOAML_INDICATORS = {"frawd": "F01"}
    with pytest.raises(ImproperlyConfigured, match="GOAML_INDICATORS: unknown key"):
        check_settings()


# ------------------------------------------------------------------ the settings module, read afresh


@pytest.fixture
def read_settings(monkeypatch):
    """Re-reads backoffice/settings/goaml.py under the environment a test sets; the module is restored after."""
    import importlib

    import backoffice.settings.base as base
    import backoffice.settings.goaml as module

    def read(environment="test", **env):
        for name in [n for n in os.environ if n.startswith("GOAML_")]:
            monkeypatch.delenv(name)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(base, "ENVIRONMENT", environment)
        return importlib.reload(module)

    yield read
    monkeypatch.undo()
    importlib.reload(module)


def test_the_defaults_are_the_ones_documented(read_settings):
    goaml = read_settings()
    assert (goaml.GOAML_SCHEMA_PATH, goaml.GOAML_RENTITY_ID, goaml.GOAML_RENTITY_BRANCH) == (None, 1, "")
    assert (goaml.GOAML_SUBMISSION_CODE, goaml.GOAML_REPORT_CODE) == ("E", "SAR")
    assert (goaml.GOAML_PHONE_CONTACT_TYPE, goaml.GOAML_PHONE_COMMUNICATION_TYPE) == ("PRIVT", "M")
    assert (goaml.GOAML_ADDRESS_TYPE, goaml.GOAML_NATIONAL_ID_TYPE, goaml.GOAML_PASSPORT_ID_TYPE) == (
        "PRIVT",
        "NID",
        "PASSP",
    )
    assert goaml.GOAML_TRANSMODE_COMMENT_REQUIRED is False
    assert goaml.GOAML_NO_EXPIRY_DATE == dt.date(9999, 12, 31)


def test_the_rentity_id_has_no_default_in_production(read_settings):
    assert read_settings("production").GOAML_RENTITY_ID is None
    assert read_settings("production", GOAML_RENTITY_ID="4711").GOAML_RENTITY_ID == 4711


@pytest.mark.parametrize(
    "name, raw",
    [
        ("GOAML_RENTITY_ID", "0"),
        ("GOAML_RENTITY_ID", "12a"),
        ("GOAML_SUBMISSION_CODE", "X"),
        ("GOAML_REPORT_CODE", "S A R"),
        ("GOAML_PHONE_CONTACT_TYPE", "PRIV T"),
        ("GOAML_NATIONAL_ID_TYPE", "N;ID"),
        ("GOAML_TRANSMODE_COMMENT_REQUIRED", "maybe"),
        ("GOAML_NO_EXPIRY_DATE", "31/12/9999"),
        ("GOAML_NO_EXPIRY_DATE", "9999-13-01"),
        ("GOAML_FUNDS_CODES", "WALLET=E W"),
        ("GOAML_GENDER_CODES", "MALE"),
        ("GOAML_SCHEMA_PATH", "/no/such/schema.xsd"),
    ],
)
def test_a_malformed_value_stops_start_up(read_settings, name, raw):
    with pytest.raises(ImproperlyConfigured, match=name):
        read_settings(**{name: raw})


def test_the_schema_path_is_a_file_relative_to_the_project(read_settings):
    goaml = read_settings(GOAML_SCHEMA_PATH="compliance/sars/tests/goaml/goaml_5_0_2_subset.xsd")
    assert goaml.GOAML_SCHEMA_PATH.is_file() and goaml.GOAML_SCHEMA_PATH.is_absolute()


def test_a_file_that_is_not_an_xsd_stops_start_up(settings, tmp_path):
    from compliance.sars.goaml import check_settings

    broken = tmp_path / "unit.xsd"
    broken.write_text("<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema'><xs:element/></xs:schema>")
    settings.GOAML_SCHEMA_PATH = broken
    with pytest.raises(ImproperlyConfigured, match="not a valid XML schema"):
        check_settings()


def test_gender_codes_take_the_sexes_and_unknown(settings):
    from compliance.sars.goaml import check_settings, code_list

    settings.GOAML_GENDER_CODES = {"UNKNOWN": "U"}
    assert code_list("GOAML_GENDER_CODES") == {"MALE": "M", "FEMALE": "F", "UNKNOWN": "U"}
    settings.GOAML_GENDER_CODES = {"OTHER": "O"}
    with pytest.raises(ImproperlyConfigured, match="GOAML_GENDER_CODES: unknown key"):
        check_settings()


@pytest.mark.parametrize("configured, warned", [(False, True), (True, False)])
def test_check_deploy_warns_while_the_rentity_id_is_not_set(settings, configured, warned):
    from django.core.checks import run_checks

    settings.GOAML_RENTITY_ID_CONFIGURED = configured
    ids = {message.id for message in run_checks(include_deployment_checks=True)}
    assert ("compliance.W001" in ids) is warned
    assert "compliance.W001" not in {message.id for message in run_checks()}  # a deployment check only
