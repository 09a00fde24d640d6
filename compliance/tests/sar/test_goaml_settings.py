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


def test_every_activity_type_and_channel_has_a_default_code(settings):
    from compliance.choices import ActivityType
    from kyc.choices import Channel

    assert set(settings.GOAML_INDICATORS) == set(ActivityType.values)
    assert set(settings.GOAML_TRANSMODE_CODES) == set(Channel.values) == set(settings.GOAML_FUNDS_CODES)
