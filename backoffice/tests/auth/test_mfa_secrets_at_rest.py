"""Second-factor secrets at rest: the app's secret sealed, recovery codes kept as digests, both through a key rotation.

A copy of the database (a backup, a read-only account) must not let anyone compute a member's codes or read their
recovery codes; a secret written into the column by someone without ``SECRET_KEY`` must not be accepted either.
"""

import importlib
import io
import logging
from base64 import b32encode
from binascii import unhexlify

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from backoffice import sealing
from backoffice.auth import mfa
from backoffice.models import StaffTOTPDevice
from backoffice.tests.factories import PASSWORD, StaffFactory
from backoffice.tests.mfa import code_now, enrol, no_backoff  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_backoff")]
URL = "/api/v1/auth/admin/login"
OLD_KEY = "test-only-secret-key-not-for-production-use-0123456789"
NEW_KEY = "a-rotated-secret-key-for-this-test-only-9876543210-abcdefghij"


def login(staff, otp: str):
    body = {"email": staff.email, "password": PASSWORD, "otp": otp}
    return APIClient().post(URL, body, format="json", REMOTE_ADDR="203.0.113.9")


def stored_key(staff) -> str:
    return TOTPDevice.objects.get(user=staff).key


def test_the_apps_secret_is_stored_sealed_and_still_gives_the_codes_that_sign_in():
    staff = StaffFactory(role="mlro")
    device, _codes = enrol(staff)
    stored = stored_key(staff)
    secret = device.bin_key
    assert stored.startswith(sealing.SHORT_PREFIX) and len(stored) <= 80
    assert secret.hex() not in stored and b32encode(secret).decode() not in stored
    assert mfa.base32_secret(device) == b32encode(secret).decode()  # what the app is given is unchanged
    assert login(staff, code_now(device)).status_code == 200


def test_django_otps_own_device_cannot_use_the_sealed_value_as_a_secret():
    staff = StaffFactory(role="mlro")
    device, _codes = enrol(staff)
    plain_row = TOTPDevice.objects.get(pk=device.pk)  # a path that forgot the proxy
    with pytest.raises(ValueError):  # not hex: binascii.Error is a ValueError
        plain_row.verify_token(code_now(device))


def test_a_hex_secret_written_into_the_column_is_refused_and_logged(caplog):
    staff = StaffFactory(role="mlro")
    enrol(staff)
    planted = "3132333435363738393031323334353637383930"  # someone with write access but without SECRET_KEY
    TOTPDevice.objects.filter(user=staff).update(key=planted)
    code = f"{TOTP(unhexlify(planted)).token():06d}"
    with caplog.at_level(logging.ERROR, logger="backoffice.auth"):
        response = login(staff, code)
    assert response.status_code == 401 and response.json()["error"]["code"] == "OTP_INVALID"
    assert "cannot be opened" in caplog.text


def test_recovery_codes_are_kept_as_digests_and_each_still_signs_in_once():
    staff = StaffFactory(role="mlro")
    _device, codes = enrol(staff)
    stored = set(StaticToken.objects.filter(device__user=staff).values_list("token", flat=True))
    plain = {mfa.normalise(code) for code in codes}
    assert len(stored) == len(codes) and not stored & plain
    assert all(len(token) == 16 for token in stored)
    assert login(staff, codes[0]).status_code == 200
    assert login(staff, codes[0]).status_code == 401  # spent
    assert mfa.recovery_codes_left(staff) == len(codes) - 1


def test_after_a_key_rotation_codes_work_under_the_fallback_and_reseal_moves_the_secret(settings):
    staff = StaffFactory(role="mlro")
    device, codes = enrol(staff)
    before = stored_key(staff)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = NEW_KEY, [OLD_KEY]
    device = mfa.totp_device(staff)
    assert login(staff, code_now(device)).status_code == 200  # the secret opens under the fallback
    assert login(staff, codes[1]).status_code == 200  # a code made before the rotation, found under the fallback

    call_command("reseal_secrets", stdout=io.StringIO())

    assert stored_key(staff) != before and sealing.is_current_short(stored_key(staff), purpose="totp-key")
    settings.SECRET_KEY_FALLBACKS = []
    device = mfa.totp_device(staff)
    assert login(staff, code_now(device, steps=1)).status_code == 200  # the old key is no longer needed for it
    assert login(staff, codes[2]).status_code == 401  # but a recovery code from before needs it: make new ones


def test_the_migration_seals_existing_secrets_and_digests_existing_codes():
    migration = importlib.import_module("backoffice.migrations.0012_staff_totp_sealed")  # starts with a digit
    staff = StaffFactory(role="mlro")
    device, codes = enrol(staff)
    secret = device.bin_key
    # as the rows were before the migration: django-otp's hex secret and the codes as typed
    TOTPDevice.objects.filter(pk=device.pk).update(key=secret.hex())
    tokens = list(StaticToken.objects.filter(device__user=staff).order_by("pk"))
    for token, code in zip(tokens, codes, strict=True):
        StaticToken.objects.filter(pk=token.pk).update(token=mfa.normalise(code))

    migration.seal_existing(django_apps, None)

    assert StaffTOTPDevice.objects.get(pk=device.pk).bin_key == secret
    assert stored_key(staff).startswith(sealing.SHORT_PREFIX)
    assert login(staff, code_now(mfa.totp_device(staff))).status_code == 200
    assert login(staff, codes[3]).status_code == 200

    migration.seal_existing(django_apps, None)  # again: nothing sealed twice
    assert StaffTOTPDevice.objects.get(pk=device.pk).bin_key == secret
    migration.open_existing(django_apps, None)
    assert stored_key(staff) == secret.hex()
