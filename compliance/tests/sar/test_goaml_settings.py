"""The goAML code lists come from the environment, strictly: a typo stops start-up instead of filing bad codes."""

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
    from compliance.choices import ActivityType
    from compliance.goaml import code_list
    from kyc.choices import Channel

    assert set(code_list("GOAML_INDICATORS")) == set(ActivityType.values)
    assert set(code_list("GOAML_TRANSMODE_CODES")) == set(Channel.values) == set(code_list("GOAML_FUNDS_CODES"))


def test_a_setting_overrides_one_code_and_keeps_the_other_defaults(settings):
    from compliance.goaml import code_list

    settings.GOAML_INDICATORS = {"fraud": "F01"}
    codes = code_list("GOAML_INDICATORS")
    assert codes["fraud"] == "F01" and codes["structuring"] == "STRUCT"


def test_an_unknown_activity_type_in_the_setting_stops_start_up(settings):
    from compliance.goaml import check_settings

    settings.GOAML_INDICATORS = {"frawd": "F01"}
    with pytest.raises(ImproperlyConfigured, match="GOAML_INDICATORS: unknown key"):
        check_settings()
