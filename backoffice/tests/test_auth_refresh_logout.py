import pytest

from backoffice.tests.factories import PASSWORD, StaffFactory

pytestmark = pytest.mark.django_db


def login(api, email="ada@example.com"):
    return api.post("/api/v1/auth/admin/login", {"email": email, "password": PASSWORD}, format="json").json()["data"]


def refresh(api, token):
    return api.post("/api/v1/auth/refresh", {"refreshToken": token}, format="json")


def test_refresh_rotates_and_the_old_token_stops_working(api):
    StaffFactory(email="ada@example.com")
    first = login(api)
    r = refresh(api, first["refreshToken"])
    second = r.json()["data"]
    assert r.status_code == 200
    assert second["refreshToken"] != first["refreshToken"] and second["accessToken"]
    replay = refresh(api, first["refreshToken"])
    assert replay.status_code == 401 and replay.json()["error"]["code"] == "TOKEN_INVALID"
    assert refresh(api, second["refreshToken"]).status_code == 200


def test_an_access_token_is_not_a_refresh_token(api):
    StaffFactory(email="ada@example.com")
    assert refresh(api, login(api)["accessToken"]).status_code == 401


def test_garbage_refresh_token_is_401(api):
    assert refresh(api, "not.a.token").status_code == 401


def test_missing_refresh_token_is_400(api):
    r = api.post("/api/v1/auth/refresh", {}, format="json")
    assert r.status_code == 400 and "refreshToken" in r.json()["error"]["details"]


def test_logout_revokes_the_refresh_token(api):
    StaffFactory(email="ada@example.com")
    pair = login(api)
    r = api.post("/api/v1/auth/logout", {"refreshToken": pair["refreshToken"]}, format="json")
    assert r.status_code == 200 and r.json()["data"] == {}
    assert refresh(api, pair["refreshToken"]).status_code == 401


def test_a_deactivated_staff_member_cannot_refresh(api):
    staff = StaffFactory(email="ada@example.com")
    pair = login(api)
    staff.is_active = False
    staff.save()
    assert refresh(api, pair["refreshToken"]).status_code == 401
