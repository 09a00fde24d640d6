"""Sessions end: a new password, another role or deactivation revokes every token; sessions have an absolute end."""

import time

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from backoffice.auth import tokens
from backoffice.models import AuditLog, Staff
from backoffice.tests.factories import PASSWORD, StaffFactory

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "Another-Passw0rd!z"


def login(email):
    response = APIClient().post("/api/v1/auth/admin/login", {"email": email, "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["data"]


def access_works(pair) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {pair['accessToken']}")
    return client.get("/api/v1/admin/me").status_code == 200


def refresh_works(pair) -> bool:
    return (
        APIClient().post("/api/v1/auth/refresh", {"refreshToken": pair["refreshToken"]}, format="json").status_code
        == 200
    )


@pytest.fixture
def staff():
    return StaffFactory(role="compliance_officer")


def test_tokens_keep_working_while_nothing_changes(staff):
    pair = login(staff.email)
    staff.first_name = "Renamed"
    staff.save()
    assert access_works(pair) and refresh_works(pair)


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.set_password(NEW_PASSWORD),
        lambda s: setattr(s, "role", "support"),
        lambda s: setattr(s, "is_active", False),
    ],
    ids=["password", "role", "deactivation"],
)
def test_a_session_ending_change_revokes_every_access_and_refresh_token(staff, change):
    pairs = [login(staff.email), login(staff.email)]
    change(staff)
    staff.save()
    for pair in pairs:
        assert not access_works(pair)
        assert not refresh_works(pair)


def test_reactivation_does_not_revive_old_tokens(staff):
    pair = login(staff.email)
    staff.is_active = False
    staff.save()
    staff.is_active = True
    staff.save()
    assert not access_works(pair) and not refresh_works(pair)
    assert access_works(login(staff.email))


def test_update_fields_saves_carry_the_new_generation(staff):
    pair = login(staff.email)
    staff.role = "mlro"
    staff.save(update_fields=["role"])
    assert Staff.objects.get(pk=staff.pk).token_generation == 1
    assert not access_works(pair)


def test_create_staff_with_the_same_password_ends_nothing_and_a_new_one_ends_all(staff):
    staff.set_password(PASSWORD)
    staff.save()
    pair = login(staff.email)
    args = ["create_staff", "--email", staff.email, "--role", staff.role]
    call_command(*args, "--password", PASSWORD)
    assert access_works(pair)
    call_command(*args, "--password", NEW_PASSWORD)
    assert not access_works(pair) and not refresh_works(pair)


def test_a_password_set_in_the_admin_site_revokes_tokens_and_is_audited(staff):
    pair = login(staff.email)
    admin = StaffFactory(role="admin")
    browser = Client()
    browser.force_login(admin)
    response = browser.post(
        f"/admin/backoffice/staff/{staff.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302, response.content[:500]
    assert not access_works(pair) and not refresh_works(pair)
    entry = AuditLog.objects.get(action="staff.password_change")
    assert (entry.actor_id, entry.object_id, entry.changes) == (admin.pk, str(staff.pk), {"password": "changed"})


def test_a_session_ends_at_its_absolute_limit_however_often_it_rotates(staff, settings):
    settings.REFRESH_SESSION_MAX_DAYS = 7
    started = int(time.time()) - 8 * 86400
    old_session = tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk, session_start=started)
    response = APIClient().post("/api/v1/auth/refresh", {"refreshToken": old_session.refresh}, format="json")
    assert response.status_code == 401 and response.json()["error"]["code"] == "TOKEN_INVALID"


def test_rotation_carries_the_session_start_and_never_outlives_the_session(staff, settings):
    settings.REFRESH_SESSION_MAX_DAYS = 7
    started = int(time.time()) - 6 * 86400 - 23 * 3600  # one hour of the session left
    pair = tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk, session_start=started)
    rotated = APIClient().post("/api/v1/auth/refresh", {"refreshToken": pair.refresh}, format="json").json()["data"]
    token = RefreshToken(rotated["refreshToken"])
    assert token["sst"] == started
    assert token["exp"] <= started + 7 * 86400
