import pytest

from backoffice.auth import otp
from kyc.models import PlatformUser
from kyc.tests.factories import PASSWORD, PlatformUserFactory

pytestmark = pytest.mark.django_db
STRONG = "Lindiwe-Str0ng-Pass"


@pytest.fixture
def register(api, django_capture_on_commit_callbacks):
    def post(**overrides):
        body = {
            "phoneNumber": "+268 7612 3456",
            "password": STRONG,
            "firstName": "Lindiwe",
            "lastName": "Dlamini",
            "email": "lindiwe@example.com",
            **overrides,
        }
        # codes leave after the commit, which a test's transaction never reaches: run the callbacks here
        with django_capture_on_commit_callbacks(execute=True):
            return api.post("/api/v1/auth/user/register", body, format="json")

    return post


def last_code(phone):
    return [code for number, code in otp.outbox if number == phone][-1]


def test_register_stores_e164_and_sends_a_code(api, register):
    r = register()
    data = r.json()["data"]
    assert r.status_code == 201
    assert data["phoneNumber"] == "+26876123456"
    assert data["verificationStatus"] == "PENDING" and data["isPhoneVerified"] is False
    assert len(last_code("+26876123456")) == 6


def test_the_code_is_stored_only_as_a_hash(api, register):
    register()
    code = last_code("+26876123456")
    from backoffice.models import OneTimeCode

    stored = OneTimeCode.objects.get(phone_number="+26876123456")
    assert code not in stored.code_hash and len(stored.code_hash) == 64


def test_login_before_verifying_is_403_then_works_after(api, register):
    register()
    login = {"phoneNumber": "76123456", "password": STRONG}
    early = api.post("/api/v1/auth/user/login", login, format="json")
    assert early.status_code == 403 and early.json()["error"]["code"] == "PHONE_NOT_VERIFIED"
    verify = api.post(
        "/api/v1/auth/otp/verify", {"phoneNumber": "+26876123456", "code": last_code("+26876123456")}, format="json"
    )
    assert verify.status_code == 200 and verify.json()["data"] == {"isPhoneVerified": True}
    r = api.post("/api/v1/auth/user/login", login, format="json")
    data = r.json()["data"]
    assert r.status_code == 200 and data["expiresIn"] == 900
    assert data["user"]["phoneNumber"] == "+26876123456" and data["user"]["firstName"] == "Lindiwe"


def test_duplicate_phone_or_email_is_409(api, register):
    register()
    assert register(email="other@example.com").status_code == 409
    r = register(phoneNumber="+26878000000", email="LINDIWE@example.com")
    assert r.status_code == 409 and r.json()["error"]["code"] == "CONFLICT"


def test_weak_password_is_400_with_reasons(api, register):
    r = register(password="12345678")
    assert r.status_code == 400 and r.json()["error"]["details"]["password"]
    assert not PlatformUser.objects.exists()


def test_invalid_phone_is_400(api, register):
    r = register(phoneNumber="12")
    assert r.status_code == 400 and "phoneNumber" in r.json()["error"]["details"]


def test_missing_fields_are_400_naming_them(api, register):
    r = api.post("/api/v1/auth/user/register", {"phoneNumber": "+26876123456"}, format="json")
    assert set(r.json()["error"]["details"]) == {"password", "firstName", "lastName"}


def test_wrong_password_and_unknown_phone_are_the_same_401(api, register):
    PlatformUserFactory(phone_number="+26876111111")
    wrong = api.post(
        "/api/v1/auth/user/login", {"phoneNumber": "+26876111111", "password": "nope-123456"}, format="json"
    )
    unknown = api.post(
        "/api/v1/auth/user/login", {"phoneNumber": "+26876999999", "password": "nope-123456"}, format="json"
    )
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["error"] == unknown.json()["error"]


def test_archived_users_cannot_log_in(api, register):
    PlatformUserFactory(phone_number="+26876111111", is_archived=True)
    r = api.post("/api/v1/auth/user/login", {"phoneNumber": "+26876111111", "password": PASSWORD}, format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "ACCOUNT_ARCHIVED"
