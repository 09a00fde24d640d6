"""Setting up two-factor sign-in: a secret confirmed by a first code, recovery codes, new codes, removal; audited."""

import pytest
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice.auth import mfa
from backoffice.errors import Conflict, ValidationFailed
from backoffice.models import AuditLog
from backoffice.services import mfa as mfa_services
from backoffice.tests.factories import PASSWORD, StaffFactory
from backoffice.tests.mfa import code_now, enrol, no_backoff  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_backoff")]


def test_a_new_secret_is_not_a_second_factor_until_the_app_gives_its_first_code():
    staff = StaffFactory()
    device = mfa_services.staff_mfa_start(staff=staff)
    assert not device.confirmed and not mfa.is_enrolled(staff) and mfa.second_step(staff) is None
    with pytest.raises(mfa.OtpInvalid):
        mfa_services.staff_mfa_confirm(staff=staff, code="000000" if code_now(device) != "000000" else "111111")
    assert not mfa.is_enrolled(staff)
    codes = mfa_services.staff_mfa_confirm(staff=staff, code=code_now(device))
    assert mfa.is_enrolled(staff) and mfa.second_step(staff) == mfa.CODE
    assert len(codes) == mfa.RECOVERY_CODE_COUNT == len(set(codes)) == mfa.recovery_codes_left(staff)
    entry = AuditLog.objects.get(action="staff.mfa_enrol")
    assert (entry.actor_id, entry.object_id) == (staff.pk, str(staff.pk))
    assert entry.changes == {"second_factor": {"from": None, "to": "authenticator app"}, "recovery_codes": 10}
    assert device.key not in str(entry.changes) and codes[0] not in str(entry.changes)


def test_starting_again_replaces_an_unconfirmed_secret_and_an_enrolled_member_must_remove_first():
    staff = StaffFactory()
    first = mfa_services.staff_mfa_start(staff=staff)
    second = mfa_services.staff_mfa_start(staff=staff)
    assert list(TOTPDevice.objects.filter(user=staff).values_list("pk", flat=True)) == [second.pk]
    assert first.key != second.key
    mfa_services.staff_mfa_confirm(staff=staff, code=code_now(second))
    with pytest.raises(Conflict):
        mfa_services.staff_mfa_start(staff=staff)


def test_confirming_with_nothing_started_is_a_clear_400():
    with pytest.raises(ValidationFailed, match="Start the set-up first"):
        mfa_services.staff_mfa_confirm(staff=StaffFactory(), code="123456")


def test_the_qr_code_and_secret_name_the_account_for_the_app():
    staff = StaffFactory(email="ada@example.com")
    device = mfa_services.staff_mfa_start(staff=staff)
    uri = device.config_url
    assert uri.startswith("otpauth://totp/Vikela%20Back%20Office%3Aada%40example.com?")
    assert f"secret={mfa.base32_secret(device)}" in uri and "issuer=Vikela%20Back%20Office" in uri
    svg = mfa.qr_svg(uri)
    assert svg.startswith("<svg") and "<title>QR code to scan with an authenticator app</title>" in svg


def test_new_recovery_codes_replace_the_old_ones_audited():
    staff = StaffFactory()
    _device, old = enrol(staff)
    new = mfa_services.staff_mfa_recovery_regenerate(staff=staff)
    assert not set(old) & set(new)
    # kept as their digests (backoffice.auth.mfa.recovery_code_digest), never as the codes shown
    stored = set(StaticToken.objects.filter(device__user=staff).values_list("token", flat=True))
    assert stored == {mfa.recovery_code_digest(code) for code in new}
    assert AuditLog.objects.get(action="staff.mfa_recovery_codes_regenerate").changes == {"recovery_codes": 10}


def test_removal_needs_the_password_and_a_code_and_is_audited():
    staff = StaffFactory()
    device, _codes = enrol(staff)
    with pytest.raises(ValidationFailed, match="password is wrong"):
        mfa_services.staff_mfa_remove(staff=staff, password="not-it", code=code_now(device))
    with pytest.raises(mfa.OtpInvalid):
        mfa_services.staff_mfa_remove(staff=staff, password=PASSWORD, code="12345678")
    with pytest.raises(mfa.OtpRequired):
        mfa_services.staff_mfa_remove(staff=staff, password=PASSWORD, code="")
    assert mfa.is_enrolled(staff)
    mfa_services.staff_mfa_remove(staff=staff, password=PASSWORD, code=code_now(device))
    assert not mfa.is_enrolled(staff) and mfa.recovery_codes_left(staff) == 0
    assert AuditLog.objects.get(action="staff.mfa_remove").changes == {
        "second_factor": {"from": "authenticator app", "to": None}
    }


def test_a_code_is_accepted_once():
    staff = StaffFactory()
    device, codes = enrol(staff)
    code = code_now(device)
    assert mfa.verify(staff, code) == "totp"
    with pytest.raises(mfa.OtpInvalid):
        mfa.verify(staff, code)
    # a recovery code as printed (with its dash, in capitals) works once too
    assert mfa.verify(staff, mfa.shown_code(codes[0]).upper()) == "recovery"
    with pytest.raises(mfa.OtpInvalid):
        mfa.verify(staff, codes[0])
    assert mfa.recovery_codes_left(staff) == 9


def test_after_a_wrong_code_django_otp_backs_off_and_says_how_long(settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 60
    staff = StaffFactory()
    device, _codes = enrol(staff)
    with pytest.raises(mfa.OtpInvalid):
        mfa.verify(staff, "000000" if code_now(device) != "000000" else "111111")
    with pytest.raises(mfa.OtpThrottled) as refused:
        mfa.verify(staff, code_now(device))  # even the right code, during the back-off
    assert refused.value.status == 429 and 1 <= int(refused.value.headers["Retry-After"]) <= 60
