import pytest

from backoffice.choices import StaffRole
from backoffice.tests.factories import PASSWORD, StaffFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/auth/admin/login"


def test_login_returns_a_token_pair_and_the_staff_member(api):
    staff = StaffFactory(email="ada@example.com", role=StaffRole.MLRO, first_name="Ada", last_name="L")
    r = api.post(URL, {"email": "ADA@example.com", "password": PASSWORD}, format="json")
    data = r.json()["data"]
    assert r.status_code == 200
    assert data["tokenType"] == "Bearer" and data["expiresIn"] == 900
    assert data["accessToken"] != data["refreshToken"]
    assert data["admin"] == {
        "id": str(staff.id),
        "email": "ada@example.com",
        "firstName": "Ada",
        "lastName": "L",
        "role": "mlro",
    }


def test_wrong_password_and_unknown_email_are_the_same_401(api):
    StaffFactory(email="ada@example.com")
    wrong = api.post(URL, {"email": "ada@example.com", "password": "nope-nope-1"}, format="json").json()
    unknown = api.post(URL, {"email": "ghost@example.com", "password": "nope-nope-1"}, format="json").json()
    assert wrong["statusCode"] == unknown["statusCode"] == 401
    assert wrong["error"] == unknown["error"]
    assert wrong["error"]["code"] == "INVALID_CREDENTIALS"


def test_a_deactivated_account_cannot_log_in(api):
    StaffFactory(email="gone@example.com", is_active=False)
    r = api.post(URL, {"email": "gone@example.com", "password": PASSWORD}, format="json")
    assert r.status_code == 401 and r.json()["error"]["code"] == "INVALID_CREDENTIALS"


def test_missing_password_is_400_naming_the_field(api):
    r = api.post(URL, {"email": "a@example.com"}, format="json")
    assert r.status_code == 400
    assert list(r.json()["error"]["details"]) == ["password"]


def test_the_access_token_opens_admin_endpoints(api):
    staff = StaffFactory(email="ada@example.com", role=StaffRole.ADMIN)
    token = api.post(URL, {"email": "ada@example.com", "password": PASSWORD}, format="json").json()["data"][
        "accessToken"
    ]
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    r = api.get("/api/v1/admin/me")
    assert r.status_code == 200
    assert r.json()["data"]["id"] == str(staff.id)
    assert "users.purge" in r.json()["data"]["capabilities"]
