"""Two-factor sign-in in tests: staff enrolled through the services, and codes computed by django-otp's own TOTP
from the device's secret, as an authenticator app would."""

import time

import pytest
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice.auth import mfa
from backoffice.services import mfa as mfa_services


def code_now(device: TOTPDevice, *, steps: int = 0, lasting: float = 5.0) -> str:
    """The app's code ``steps`` periods from now (django-otp accepts one period either side, each step once). An app
    knows nothing of the drift django-otp learns, so neither does this. A code is accepted until the period after
    its own ends, so a past period's code may have only moments left: this waits for the next period when it would
    last less than ``lasting`` seconds (a browser test's fill and click took two seconds on a busy machine, and a
    code from the period before could expire in between)."""
    while True:
        now = time.time()
        period = int((now - device.t0) // device.step) + steps
        left = device.t0 + (period + 2) * device.step - now
        if left >= lasting:
            break
        time.sleep(left + 0.05)
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits)
    totp.time = now + steps * device.step
    return f"{totp.token():0{device.digits}d}"


def enrol(staff) -> tuple[TOTPDevice, list[str]]:
    """Set up and confirm an app for ``staff``; its device and recovery codes. The first code confirmed is the
    previous period's, so the current one and the next are still unspent for the test's sign-ins."""
    device = mfa_services.staff_mfa_start(staff=staff)
    codes = mfa_services.staff_mfa_confirm(staff=staff, code=code_now(device, steps=-1))
    return mfa.totp_device(staff), codes


@pytest.fixture
def no_backoff(settings):
    """django-otp's back-off after a wrong code (a second or more) off, so a test may try again at once."""
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    settings.OTP_STATIC_THROTTLE_FACTOR = 0
