"""Choosing and configuring a provider from the settings."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from verification.engine.aws import AwsProvider
from verification.engine.local import LocalProvider
from verification.engine.providers import get_provider, limits_from_settings, providers
from verification.engine.quality import QualityLimits


def test_the_default_provider_is_local(settings):
    settings.VERIFICATION_PROVIDER = "local"
    provider = get_provider()
    assert isinstance(provider, LocalProvider) and provider.name == "local"
    assert get_provider() is provider  # one instance per process


def test_the_aws_provider_takes_the_region_from_the_settings(settings):
    settings.VERIFICATION_AWS_REGION = "eu-west-1"
    provider = get_provider("aws")
    assert isinstance(provider, AwsProvider)
    assert provider.region == "eu-west-1"
    assert provider.versions()["provider"] == "aws"


def test_an_unknown_provider_is_a_configuration_error(settings):
    settings.VERIFICATION_PROVIDER = "magic"
    with pytest.raises(ImproperlyConfigured, match="VERIFICATION_PROVIDER"):
        providers.check()
    assert providers.names() == ["aws", "local"]


def test_unset_limits_keep_the_engines_defaults(settings):
    settings.VERIFICATION_MIN_SHARPNESS = None
    settings.VERIFICATION_BRIGHTNESS_RANGE = None
    assert limits_from_settings() == QualityLimits()


def test_limits_from_the_settings_reach_the_provider(settings):
    settings.VERIFICATION_MIN_FACE_PX_SELFIE = 300
    settings.VERIFICATION_BRIGHTNESS_RANGE = (40.0, 230.0)
    settings.VERIFICATION_MAX_GLARE = 0.1
    provider = get_provider("local")
    assert provider.limits.min_face_px_selfie == 300
    assert (provider.limits.brightness_low, provider.limits.brightness_high) == (40.0, 230.0)
    assert provider.thresholds()["max_glare"] == 0.1
    assert provider.thresholds()["similarity_at_distance_0.50"] == 80.0


def test_the_local_provider_names_its_models():
    # whichever OCR engine this machine has (tesseract when installed, RapidOCR otherwise)
    versions = LocalProvider().versions()
    assert versions["face_descriptor"] == "dlib_face_recognition_resnet_model_v1"
    assert versions["dlib"] != "unknown"
    engine = versions["ocr_engine"]
    assert engine in ("tesseract", "rapidocr")
    ocr_version = versions["tesseract"] if engine == "tesseract" else versions["rapidocr_onnxruntime"]
    assert ocr_version not in ("unknown", "unavailable")


@pytest.mark.binary("tesseract")
def test_the_local_provider_names_tesseracts_version():
    assert LocalProvider(ocr_engine="tesseract").versions()["tesseract"].startswith("5.")


def test_a_malformed_brightness_range_stops_start_up(monkeypatch):
    from backoffice.settings.verification import _brightness_range

    monkeypatch.setenv("VERIFICATION_BRIGHTNESS_RANGE", "200,50")
    with pytest.raises(ImproperlyConfigured, match="LOW < HIGH"):
        _brightness_range("VERIFICATION_BRIGHTNESS_RANGE")
    monkeypatch.setenv("VERIFICATION_BRIGHTNESS_RANGE", "dark,bright")
    with pytest.raises(ImproperlyConfigured, match="two numbers"):
        _brightness_range("VERIFICATION_BRIGHTNESS_RANGE")
    monkeypatch.setenv("VERIFICATION_BRIGHTNESS_RANGE", "50, 200")
    assert _brightness_range("VERIFICATION_BRIGHTNESS_RANGE") == (50.0, 200.0)
