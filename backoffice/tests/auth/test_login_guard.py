"""Sign-in throttling: per address and per account, on the API's logins and the admin site's form alike."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from backoffice.models import AuditLog
from backoffice.tests.factories import PASSWORD, StaffFactory

pytestmark = pytest.mark.django_db
ADMIN_LOGIN = "/admin/login/"
GENERIC = "Please enter the correct email and password"


def api_login(email, password, ip="203.0.113.1"):
    return APIClient().post(
        "/api/v1/auth/admin/login", {"email": email, "password": password}, format="json", REMOTE_ADDR=ip
    )


def site_login(email, password, ip="203.0.113.1"):
    return Client(REMOTE_ADDR=ip).post(ADMIN_LOGIN, {"username": email, "password": password})


@pytest.fixture
def lockout(settings):
    settings.LOGIN_LOCKOUT_FAILURES = 3
    settings.LOGIN_LOCKOUT_MINUTES = 15
    settings.RATE_LIMIT_AUTH = "100/m"


def test_failures_spread_over_addresses_lock_the_account_with_an_audit_entry(lockout):
    staff = StaffFactory(role="admin")
    for n in range(3):
        assert api_login(staff.email, "wrong", ip=f"198.51.100.{n}").status_code == 401
    locked = api_login(staff.email, PASSWORD, ip="198.51.100.9")  # even the right password, from elsewhere
    assert locked.status_code == 429 and locked.json()["error"]["code"] == "ACCOUNT_LOCKED"
    assert locked["Retry-After"] == str(15 * 60)
    entry = AuditLog.objects.get(action="login.locked")
    assert entry.object_id == str(staff.pk) and entry.changes["via"] == "api"


def test_a_name_that_matches_no_account_locks_the_same_way(lockout):
    for _ in range(3):
        assert api_login("nobody@example.com", "wrong").status_code == 401
    assert api_login("NOBODY@example.com", "wrong").json()["error"]["code"] == "ACCOUNT_LOCKED"


def test_a_success_clears_the_count(lockout):
    staff = StaffFactory()
    for _ in range(2):
        api_login(staff.email, "wrong")
    assert api_login(staff.email, PASSWORD).status_code == 200
    for _ in range(2):
        api_login(staff.email, "wrong")
    assert api_login(staff.email, PASSWORD).status_code == 200


def test_the_admin_site_form_keeps_one_generic_message_for_wrong_credentials(settings):
    staff = StaffFactory()
    known = site_login(staff.email, "wrong").content.decode()
    unknown = site_login("nobody@example.com", "wrong").content.decode()
    assert GENERIC in known and GENERIC in unknown


def test_the_admin_site_form_is_rate_limited_per_address_on_failures(settings):
    settings.RATE_LIMIT_AUTH = "3/m"
    staff = StaffFactory()
    for _ in range(3):
        assert GENERIC in site_login(staff.email, "wrong").content.decode()
    limited = site_login(staff.email, PASSWORD).content.decode()
    assert "Too many failed sign-in attempts from your address" in limited
    assert site_login(staff.email, PASSWORD, ip="203.0.113.2").status_code == 302  # another address signs in


def test_failures_on_different_accounts_count_against_the_one_address(settings):
    settings.RATE_LIMIT_AUTH = "3/m"
    guessed = [StaffFactory() for _ in range(3)]
    for staff in guessed:
        assert GENERIC in site_login(staff.email, "wrong").content.decode()
    # no account reached its own lock, but the address is refused, for everyone behind it
    limited = site_login(StaffFactory().email, PASSWORD).content.decode()
    assert "Too many failed sign-in attempts from your address" in limited


def test_a_team_behind_one_address_signs_in_as_often_as_it_needs(settings):
    settings.RATE_LIMIT_AUTH = "3/m"
    team = [StaffFactory() for _ in range(2 * 3)]  # more sign-ins than the address may fail
    for staff in team:
        assert site_login(staff.email, PASSWORD).status_code == 302
    # and successes leave the whole allowance of failures for a mistyped password
    for _ in range(2):
        assert GENERIC in site_login(team[0].email, "wrong").content.decode()
    assert site_login(team[0].email, PASSWORD).status_code == 302


def test_the_admin_site_form_locks_the_account_says_so_and_audits_it(lockout):
    staff = StaffFactory(role="admin")
    for n in range(2):
        site_login(staff.email, "wrong", ip=f"198.51.100.{n}")
    third = site_login(staff.email, "wrong", ip="198.51.100.3").content.decode()
    assert "locked for 15 minutes" in third
    assert "locked for 15 minutes" in site_login(staff.email, PASSWORD, ip="198.51.100.4").content.decode()
    assert AuditLog.objects.get(action="login.locked").changes["via"] == "admin site"
    # the API honours the same lock: one account, one count
    assert api_login(staff.email, PASSWORD).json()["error"]["code"] == "ACCOUNT_LOCKED"
