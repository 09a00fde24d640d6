"""One-time codes: 6 digits, 10 minutes, 5 tries, through pluggable backends."""

from datetime import timedelta

import pytest
from django.utils import timezone

from backoffice.auth import otp
from backoffice.models import OneTimeCode
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db
PHONE = "+26876123456"


def verify(api, code):
    return api.post("/api/v1/auth/otp/verify", {"phoneNumber": PHONE, "code": code}, format="json")


@pytest.fixture
def user(django_capture_on_commit_callbacks):
    user = PlatformUserFactory(phone_number=PHONE, is_phone_verified=False)
    with django_capture_on_commit_callbacks(execute=True):
        otp.otp_issue(phone_number=PHONE)
    return user


def wrong_code(right):
    return f"{(int(right) + 1) % 1_000_000:06d}"


def test_five_wrong_tries_burn_the_code(api, user):
    code = otp.outbox[-1][1]
    for _ in range(5):
        assert verify(api, wrong_code(code)).status_code == 400
    burnt = verify(api, code)
    assert burnt.status_code == 400
    user.refresh_from_db()
    assert user.is_phone_verified is False


def test_the_fifth_wrong_try_says_the_code_is_burnt(api, user):
    code = otp.outbox[-1][1]
    codes = [verify(api, wrong_code(code)).json()["error"]["code"] for _ in range(5)]
    assert codes == ["INVALID_OTP"] * 4 + ["OTP_ATTEMPTS_EXCEEDED"]


def test_an_expired_code_is_refused(api, user):
    OneTimeCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    r = verify(api, otp.outbox[-1][1])
    assert r.status_code == 400 and r.json()["error"]["code"] == "OTP_EXPIRED"


def test_a_code_lives_ten_minutes(user):
    record = OneTimeCode.objects.get()
    assert timedelta(minutes=9, seconds=59) < record.expires_at - record.created_at <= timedelta(minutes=10, seconds=1)


def test_resend_retires_the_old_code_and_sends_a_new_one(api, user, django_capture_on_commit_callbacks):
    old = otp.outbox[-1][1]
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/api/v1/auth/otp/resend", {"phoneNumber": "+268 7612 3456"}, format="json")
    assert r.status_code == 200 and r.json()["data"] == {}
    new = otp.outbox[-1][1]
    assert len(otp.outbox) == 2
    if new != old:  # one chance in a million that the fresh code repeats the old one
        assert verify(api, old).status_code == 400
    assert verify(api, new).status_code == 200


def test_resend_for_an_unknown_number_says_the_same_and_sends_nothing(api, db):
    r = api.post("/api/v1/auth/otp/resend", {"phoneNumber": "+26876000000"}, format="json")
    assert r.status_code == 200 and otp.outbox == []


def test_a_code_works_once(api, user):
    code = otp.outbox[-1][1]
    assert verify(api, code).status_code == 200
    assert verify(api, code).status_code == 400


def test_code_must_be_six_digits(api, user):
    r = verify(api, "12ab")
    assert r.status_code == 400 and "code" in r.json()["error"]["details"]


def test_file_backend_appends_phone_and_code_lines(settings, tmp_path):
    settings.OTP_BACKEND = "file"
    settings.OTP_FILE_PATH = str(tmp_path / "otp.txt")
    otp.get_backend().send(PHONE, "123456")
    otp.get_backend().send(PHONE, "654321")
    assert (tmp_path / "otp.txt").read_text().splitlines() == [f"{PHONE} 123456", f"{PHONE} 654321"]
