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


def access_works(api, access) -> bool:
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    try:
        return api.get("/api/v1/admin/me").status_code == 200
    finally:
        api.credentials()


def logout(api, refresh_token):
    return api.post("/api/v1/auth/logout", {"refreshToken": refresh_token}, format="json")


def test_logout_ends_the_sessions_access_tokens_at_once_not_in_15_minutes(api):
    StaffFactory(email="ada@example.com")
    first = login(api)
    rotated = refresh(api, first["refreshToken"]).json()["data"]  # the same session, a later pair
    assert access_works(api, first["accessToken"]) and access_works(api, rotated["accessToken"])
    assert logout(api, rotated["refreshToken"]).status_code == 200
    assert not access_works(api, first["accessToken"])
    assert not access_works(api, rotated["accessToken"])
    answer = api.get("/api/v1/admin/me", HTTP_AUTHORIZATION=f"Bearer {rotated['accessToken']}")
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "UNAUTHORIZED"


def test_logout_leaves_the_same_persons_other_sessions_alone(api):
    StaffFactory(email="ada@example.com")
    laptop, phone = login(api), login(api)
    assert logout(api, laptop["refreshToken"]).status_code == 200
    assert access_works(api, phone["accessToken"])
    assert refresh(api, phone["refreshToken"]).status_code == 200


def test_a_token_from_before_sessions_had_ids_is_still_honoured_until_it_expires(api):
    from rest_framework_simplejwt.tokens import RefreshToken

    from backoffice.auth import tokens

    staff = StaffFactory(email="ada@example.com")
    pair = tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk)
    legacy = RefreshToken(pair.refresh)
    del legacy["sid"]
    assert access_works(api, str(legacy.access_token))
    assert logout(api, str(legacy)).status_code == 200  # the refresh token is revoked, there is no session to end
    assert refresh(api, str(legacy)).status_code == 401
