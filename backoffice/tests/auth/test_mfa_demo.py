"""The demo's enrolled staff member: its secret printed by the seed, so a code computed from it signs in."""

import io
import re
import subprocess
import sys

import pytest
from rest_framework.test import APIClient

from backoffice import demo
from backoffice.auth import mfa

pytestmark = pytest.mark.django_db


def test_the_seed_prints_the_secret_and_a_code_from_it_signs_in_once_seeded_again_it_stays():
    out = io.StringIO()
    demo.seed(out)
    printed = out.getvalue()
    secret = re.search(r"its authenticator secret: ([A-Z2-7]+)", printed).group(1)
    assert "otpauth://totp/Vikela%20Back%20Office%3Atwofactor%40vikela.demo?secret=" + secret in printed
    staff = demo.demo_staff("twofactor")
    assert mfa.base32_secret(mfa.totp_device(staff)) == secret
    body = {"email": staff.email, "password": demo.DEMO_PASSWORD}
    assert APIClient().post("/api/v1/auth/admin/login", body, format="json").json()["error"]["code"] == "OTP_REQUIRED"
    # the code as the docs compute it: the script the seed names
    code = subprocess.run(
        [sys.executable, "scripts/totp-code", secret], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert APIClient().post("/api/v1/auth/admin/login", {**body, "otp": code}, format="json").status_code == 200
    again = io.StringIO()
    demo.seed(again)
    assert secret in again.getvalue() and mfa.recovery_codes_left(staff) == mfa.RECOVERY_CODE_COUNT
