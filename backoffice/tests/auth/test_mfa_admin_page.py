"""Each staff member's own two-factor page in the admin site: every form on it submitted (set up, confirm, new
recovery codes, remove), by every role."""

import re

import pytest
from django.test import Client

from backoffice.auth import mfa
from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import PASSWORD, StaffFactory
from backoffice.tests.mfa import code_now, enrol, no_backoff  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_backoff")]
PAGE = "/admin/two-factor/"


def client_of(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def shown_codes(response) -> list[str]:
    return re.findall(r"<li><code>([a-z2-7]{4}-[a-z2-7]{4})</code></li>", response.content.decode())


@pytest.mark.parametrize("role", StaffRole.values)
def test_every_role_sets_up_its_app_from_its_own_page(role):
    staff = StaffFactory(role=role)
    client = client_of(staff)
    page = client.get(PAGE).content.decode()
    assert 'data-testid="start-form"' in page and "Off" in page
    assert "Two-factor sign-in" in client.get("/admin/").content.decode()  # the sidebar and account menu link
    assert client.post(PAGE, {"action": "start"})["Location"] == PAGE
    page = client.get(PAGE).content.decode()
    assert 'data-testid="confirm-form"' in page and "<svg" in page
    device = mfa.totp_device(staff, confirmed=False)
    assert mfa.base32_secret(device) in page
    refused = client.post(PAGE, {"action": "confirm", "code": "12345"}).content.decode()
    assert "The code is wrong or expired" in refused and not mfa.is_enrolled(staff)
    shown = client.post(PAGE, {"action": "confirm", "code": code_now(device)})
    assert shown.status_code == 200 and len(shown_codes(shown)) == mfa.RECOVERY_CODE_COUNT
    assert mfa.is_enrolled(staff)
    page = client.get(PAGE).content.decode()
    assert 'data-testid="regenerate-form"' in page and 'data-testid="remove-form"' in page
    assert shown_codes(shown)[0] not in page  # shown once


def test_new_recovery_codes_are_shown_once_and_the_old_ones_end():
    staff = StaffFactory()
    _device, old = enrol(staff)
    client = client_of(staff)
    shown = client.post(PAGE, {"action": "regenerate"})
    new = [code.replace("-", "") for code in shown_codes(shown)]
    assert len(new) == 10 and not set(new) & set(old)
    assert "The codes you had before no longer work" in shown.content.decode()
    assert "Recovery codes left: <strong>10</strong>" in client.get(PAGE).content.decode()


def test_removal_asks_for_the_password_and_a_code():
    staff = StaffFactory()
    device, _codes = enrol(staff)
    client = client_of(staff)
    wrong_password = client.post(PAGE, {"action": "remove", "password": "not-mine", "code": code_now(device)})
    assert "The password is wrong" in wrong_password.content.decode()
    wrong_code = client.post(PAGE, {"action": "remove", "password": PASSWORD, "code": "99999999"})
    assert "The code is wrong, expired or already used" in wrong_code.content.decode()
    empty = client.post(PAGE, {"action": "remove", "password": "", "code": ""})
    assert empty.status_code == 200 and "This field is required." in empty.content.decode()
    assert mfa.is_enrolled(staff)
    done = client.post(PAGE, {"action": "remove", "password": PASSWORD, "code": code_now(device)})
    assert done["Location"] == PAGE and not mfa.is_enrolled(staff)
    assert AuditLog.objects.filter(action="staff.mfa_remove", actor=staff).exists()
    assert "Two-factor sign-in removed" in client.get(PAGE).content.decode()


def test_a_required_role_removing_its_app_is_signed_out_to_set_up_another(settings):
    settings.STAFF_MFA_REQUIRED_ROLES = ["admin"]
    staff = StaffFactory(role="admin")
    device, _codes = enrol(staff)
    client = client_of(staff)
    assert "Your role requires a second factor" in client.get(PAGE).content.decode()
    done = client.post(PAGE, {"action": "remove", "password": PASSWORD, "code": code_now(device)})
    assert done["Location"] == "/admin/login/" and "_auth_user_id" not in client.session


def test_an_unknown_action_and_a_second_set_up_are_refused_with_a_message():
    staff = StaffFactory()
    enrol(staff)
    client = client_of(staff)
    assert "Unknown action" in client.post(PAGE, {"action": "nope"}, follow=True).content.decode()
    again = client.post(PAGE, {"action": "start"}, follow=True).content.decode()
    assert "already set up" in again


def test_signed_out_visitors_are_sent_to_sign_in():
    answer = Client().get(PAGE)
    assert answer.status_code == 302 and answer["Location"].startswith("/admin/login/")
