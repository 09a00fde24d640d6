"""The API's staff login with two-factor sign-in: the otp field, recovery codes, the lockout, required roles."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from backoffice.auth import mfa
from backoffice.env import env_choices
from backoffice.models import AuditLog
from backoffice.tests.factories import PASSWORD, StaffFactory
from backoffice.tests.mfa import code_now, enrol, no_backoff  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_backoff")]
URL = "/api/v1/auth/admin/login"


def login(staff, password=PASSWORD, ip="203.0.113.1", **extra):
    body = {"email": staff.email, "password": password, **extra}
    return APIClient().post(URL, body, format="json", REMOTE_ADDR=ip)


def error(response):
    return response.status_code, response.json()["error"]["code"]


def wrong(device):
    return "000000" if code_now(device) != "000000" else "111111"


@pytest.fixture
def lockout(settings):
    settings.LOGIN_LOCKOUT_FAILURES = 3
    settings.RATE_LIMIT_AUTH = "100/m"


def test_without_enrolment_the_login_answer_is_unchanged_and_an_otp_is_ignored():
    staff = StaffFactory(role="mlro")
    r = login(staff)
    assert r.status_code == 200 and set(r.json()["data"]) == {
        "accessToken",
        "refreshToken",
        "tokenType",
        "expiresIn",
        "admin",
    }
    assert login(staff, otp="123456").status_code == 200


def test_an_enrolled_member_needs_the_code():
    staff = StaffFactory()
    device, _codes = enrol(staff)
    missing = login(staff)
    assert error(missing) == (401, "OTP_REQUIRED")
    assert "otp" in missing.json()["message"]
    assert error(login(staff, otp="")) == (401, "OTP_REQUIRED")
    assert error(login(staff, otp=wrong(device))) == (401, "OTP_INVALID")
    ok = login(staff, otp=code_now(device))
    assert ok.status_code == 200 and ok.json()["data"]["admin"]["id"] == str(staff.pk)


def test_the_password_is_checked_before_the_code_and_says_nothing_of_it():
    staff = StaffFactory()
    device, _codes = enrol(staff)
    assert error(login(staff, password="nope-nope-1", otp=code_now(device))) == (401, "INVALID_CREDENTIALS")
    assert error(login(staff, password="nope-nope-1")) == (401, "INVALID_CREDENTIALS")


def test_a_code_opens_one_session_only():
    staff = StaffFactory()
    device, _codes = enrol(staff)
    code = code_now(device)
    assert login(staff, otp=code).status_code == 200
    assert error(login(staff, otp=code)) == (401, "OTP_INVALID")
    assert login(staff, otp=code_now(device, steps=1)).status_code == 200  # the next period's code


def test_a_recovery_code_signs_in_once_and_is_audited():
    staff = StaffFactory()
    _device, codes = enrol(staff)
    assert login(staff, otp=mfa.shown_code(codes[3])).status_code == 200
    assert error(login(staff, otp=codes[3])) == (401, "OTP_INVALID")
    entry = AuditLog.objects.get(action="staff.mfa_recovery_code_use")
    assert entry.actor_id == staff.pk and entry.changes == {"recovery_codes_left": 9, "via": "api"}


def test_wrong_codes_count_towards_the_lockout_and_a_right_password_does_not_clear_them(lockout):
    staff = StaffFactory(role="admin")
    device, _codes = enrol(staff)
    assert error(login(staff, otp=wrong(device), ip="198.51.100.1")) == (401, "OTP_INVALID")
    assert error(login(staff, ip="198.51.100.2")) == (401, "OTP_REQUIRED")  # the password alone: no reset
    assert error(login(staff, otp=wrong(device), ip="198.51.100.3")) == (401, "OTP_INVALID")
    assert error(login(staff, password="wrong-wrong-1", ip="198.51.100.4")) == (401, "INVALID_CREDENTIALS")
    locked = login(staff, otp=code_now(device), ip="198.51.100.5")  # even the right password and code now
    assert error(locked) == (429, "ACCOUNT_LOCKED")
    assert AuditLog.objects.get(action="login.locked").object_id == str(staff.pk)


def test_a_successful_sign_in_with_its_code_clears_the_count(lockout):
    staff = StaffFactory()
    device, _codes = enrol(staff)
    for _ in range(2):
        login(staff, otp=wrong(device))
    assert login(staff, otp=code_now(device)).status_code == 200
    for _ in range(2):
        login(staff, otp=wrong(device))
    assert login(staff, otp=code_now(device, steps=1)).status_code == 200


def test_the_back_off_after_a_wrong_code_is_a_429_with_retry_after(settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 60
    staff = StaffFactory()
    device, _codes = enrol(staff)
    login(staff, otp=wrong(device))
    throttled = login(staff, otp=code_now(device))
    assert error(throttled) == (429, "OTP_THROTTLED") and int(throttled["Retry-After"]) >= 1


def test_a_required_role_cannot_sign_in_before_enrolling_and_other_roles_are_unaffected(settings):
    settings.STAFF_MFA_REQUIRED_ROLES = ["mlro", "admin"]
    mlro, support = StaffFactory(role="mlro"), StaffFactory(role="support")
    refused = login(mlro)
    assert error(refused) == (403, "MFA_ENROLMENT_REQUIRED") and "admin site" in refused.json()["message"]
    assert error(login(mlro, otp="123456")) == (403, "MFA_ENROLMENT_REQUIRED")
    assert login(support).status_code == 200
    device, _codes = enrol(mlro)
    assert error(login(mlro)) == (401, "OTP_REQUIRED")
    assert login(mlro, otp=code_now(device)).status_code == 200


def test_the_required_roles_setting_is_parsed_strictly(monkeypatch):
    roles = {"support", "mlro", "admin"}
    monkeypatch.delenv("STAFF_MFA_REQUIRED_ROLES", raising=False)
    assert env_choices("STAFF_MFA_REQUIRED_ROLES", [], roles) == []
    monkeypatch.setenv("STAFF_MFA_REQUIRED_ROLES", " mlro, admin ,")
    assert env_choices("STAFF_MFA_REQUIRED_ROLES", [], roles) == ["mlro", "admin"]
    monkeypatch.setenv("STAFF_MFA_REQUIRED_ROLES", "mlro,MLRO,auditor")
    with pytest.raises(
        ImproperlyConfigured, match=r"STAFF_MFA_REQUIRED_ROLES: unknown value\(s\) \['MLRO', 'auditor'\]"
    ):
        env_choices("STAFF_MFA_REQUIRED_ROLES", [], roles)
