"""Sealed secrets: they open with the key that sealed them or a fallback, for their purpose only, and a value no
key opens is refused with a reason instead of being used."""

import pytest

from backoffice import sealing

KEY = "k" * 50


@pytest.fixture
def keys(settings):
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = KEY, []
    return settings


def test_a_sealed_value_opens_and_does_not_show_its_plaintext(keys):
    sealed = sealing.seal("whsec_c2VjcmV0", purpose="webhook-secret")
    assert sealed.startswith(sealing.PREFIX) and "whsec_" not in sealed and "c2VjcmV0" not in sealed
    assert sealing.unseal(sealed, purpose="webhook-secret") == "whsec_c2VjcmV0"
    # sealing the same value twice gives different text (a fresh IV), so equal secrets are not visible as equal
    assert sealing.seal("whsec_c2VjcmV0", purpose="webhook-secret") != sealed


def test_a_value_sealed_for_one_purpose_does_not_open_for_another(keys):
    sealed = sealing.seal("x", purpose="webhook-secret")
    with pytest.raises(sealing.Unsealable):
        sealing.unseal(sealed, purpose="another")


def test_after_a_key_rotation_the_fallback_opens_it_and_without_it_nothing_does(keys):
    sealed = sealing.seal("x", purpose="p")
    keys.SECRET_KEY, keys.SECRET_KEY_FALLBACKS = "n" * 50, [KEY]
    assert sealing.unseal(sealed, purpose="p") == "x"
    assert not sealing.is_current(sealed, purpose="p")
    assert sealing.is_current(sealing.seal("x", purpose="p"), purpose="p")
    keys.SECRET_KEY_FALLBACKS = []
    with pytest.raises(sealing.Unsealable, match="SECRET_KEY_FALLBACKS"):
        sealing.unseal(sealed, purpose="p")


@pytest.mark.parametrize("value", ["whsec_plain", "", "sealed:v1:not-a-token"])
def test_plaintext_or_damaged_values_are_refused(keys, value):
    with pytest.raises(sealing.Unsealable):
        sealing.unseal(value, purpose="p")
