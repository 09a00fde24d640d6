import pytest

from vendors.tests.factories import PASSWORD, VendorFactory

pytestmark = pytest.mark.django_db


def test_vendor_register_and_login(api):
    body = {
        "businessName": "Mbabane Fresh",
        "phoneNumber": "+268 7812 3456",
        "email": "Shop@Example.com",
        "password": "Vendor-Str0ng-Pass",
        "contactName": "Thandi",
    }
    r = api.post("/api/v1/auth/vendor/register", body, format="json")
    data = r.json()["data"]
    assert r.status_code == 201
    assert (
        data["phoneNumber"] == "+26878123456" and data["kycStatus"] == "PENDING" and data["email"] == "shop@example.com"
    )
    login = api.post(
        "/api/v1/auth/vendor/login", {"email": "shop@example.com", "password": body["password"]}, format="json"
    )
    assert login.status_code == 200
    assert login.json()["data"]["vendor"] == {
        "id": data["id"],
        "businessName": "Mbabane Fresh",
        "email": "shop@example.com",
    }


def test_duplicate_vendor_email_is_409(api):
    VendorFactory(email="shop@example.com")
    body = {
        "businessName": "X",
        "phoneNumber": "+26878999999",
        "email": "shop@example.com",
        "password": "Vendor-Str0ng-Pass",
    }
    assert api.post("/api/v1/auth/vendor/register", body, format="json").status_code == 409


def test_vendor_wrong_password_is_401(api):
    VendorFactory(email="shop@example.com")
    r = api.post("/api/v1/auth/vendor/login", {"email": "shop@example.com", "password": "wrong-pass-1"}, format="json")
    assert r.status_code == 401 and r.json()["error"]["code"] == "INVALID_CREDENTIALS"
    ok = api.post("/api/v1/auth/vendor/login", {"email": "shop@example.com", "password": PASSWORD}, format="json")
    assert ok.status_code == 200
