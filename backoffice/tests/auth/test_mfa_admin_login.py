"""The admin site's sign-in with two-factor sign-in: the code after the password, in a second step, before the
session is signed in; recovery codes; the lockouts; a required role sent to set up its app."""

import re
import uuid

import pytest
from django.contrib import admin
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import Client

from backoffice.auth import mfa
from backoffice.models import AuditLog
from backoffice.services import staff_password_save
from backoffice.tests.factories import PASSWORD, StaffFactory
from backoffice.tests.mfa import code_now, enrol, no_backoff  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_backoff")]
LOGIN, CODE, SET_UP = "/admin/login/", "/admin/login/code/", "/admin/login/set-up/"


def password_step(staff, password=PASSWORD, ip="203.0.113.1", url=LOGIN):
    client = Client(REMOTE_ADDR=ip)
    return client, client.post(url, {"username": staff.email, "password": password})


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session and client.get("/admin/").status_code == 200


def wrong(device):
    return "000000" if code_now(device) != "000000" else "111111"


def test_staff_without_a_second_factor_sign_in_with_the_password_as_before():
    client, answer = password_step(StaffFactory())
    assert answer.status_code == 302 and answer["Location"] == "/admin/"
    assert signed_in(client)


def test_the_right_password_of_an_enrolled_member_leads_to_the_code_not_into_the_site():
    staff = StaffFactory(role="compliance_officer")
    device, _codes = enrol(staff)
    client, answer = password_step(staff)
    assert answer.status_code == 302 and answer["Location"] == CODE
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # to the login page: not signed in
    page = client.get(CODE)
    assert page.status_code == 200 and staff.email in page.content.decode()
    assert 'autocomplete="one-time-code"' in page.content.decode()
    refused = client.post(CODE, {"code": wrong(device)})
    assert refused.status_code == 200 and "That code is wrong, expired or already used." in refused.content.decode()
    assert "_auth_user_id" not in client.session
    done = client.post(CODE, {"code": code_now(device)})
    assert done.status_code == 302 and done["Location"] == "/admin/"
    assert signed_in(client)


def test_the_page_asked_for_first_is_where_the_code_leads():
    staff = StaffFactory(role="admin")
    device, _codes = enrol(staff)
    client = Client()
    client.post(f"{LOGIN}?next=/admin/backoffice/auditlog/", {"username": staff.email, "password": PASSWORD})
    assert client.post(CODE, {"code": code_now(device)})["Location"] == "/admin/backoffice/auditlog/"


def test_the_sites_own_login_stops_at_the_password_wherever_it_is_called_from(rf):
    # a page may answer with the site's login in place (the held-transaction page does, for a deactivated member)
    # and that form posts back to the page: the site's login itself must stop at the password
    staff = StaffFactory(role="compliance_officer")
    enrol(staff)
    request = rf.post(
        f"/admin/compliance/heldtransaction/{uuid.uuid4()}/change/", {"username": staff.email, "password": PASSWORD}
    )
    SessionMiddleware(lambda r: None).process_request(request)
    request.user = AnonymousUser()
    request._dont_enforce_csrf_checks = True
    answer = admin.site.login(request)
    assert answer.status_code == 302 and answer["Location"] == CODE
    assert "_auth_user_id" not in request.session and request.session["staff_mfa_pending"]["staff"] == str(staff.pk)


def test_a_recovery_code_signs_in_once_and_is_audited():
    staff = StaffFactory()
    _device, codes = enrol(staff)
    client, _ = password_step(staff)
    assert client.post(CODE, {"code": mfa.shown_code(codes[0])}).status_code == 302
    assert signed_in(client)
    again, _ = password_step(staff)
    assert "That code is wrong" in again.post(CODE, {"code": codes[0]}).content.decode()
    entry = AuditLog.objects.get(action="staff.mfa_recovery_code_use")
    assert entry.changes == {"recovery_codes_left": 9, "via": "admin site"}


def test_wrong_codes_lock_the_account_like_wrong_passwords(settings):
    settings.LOGIN_LOCKOUT_FAILURES = 3
    settings.RATE_LIMIT_AUTH = "100/m"
    staff = StaffFactory(role="admin")
    device, _codes = enrol(staff)
    client, _ = password_step(staff)
    client.post(CODE, {"code": wrong(device)})
    client.post(CODE, {"code": wrong(device)})
    # a right password in between clears nothing: only a whole sign-in does
    client, _ = password_step(staff, ip="198.51.100.7")
    third = client.post(CODE, {"code": wrong(device)}).content.decode()
    assert "locked for 15 minutes" in third
    assert AuditLog.objects.get(action="login.locked").changes["via"] == "admin site"
    assert client.get(CODE)["Location"] == LOGIN  # the step is over
    _, locked = password_step(staff)
    assert "locked for 15 minutes" in locked.content.decode()
    api = Client().post(
        "/api/v1/auth/admin/login",
        {"email": staff.email, "password": PASSWORD, "otp": code_now(device)},
        content_type="application/json",
    )
    assert api.json()["error"]["code"] == "ACCOUNT_LOCKED"


def test_wrong_codes_count_against_the_address_too(settings):
    settings.RATE_LIMIT_AUTH = "2/m"
    staff = StaffFactory()
    device, _codes = enrol(staff)
    client, _ = password_step(staff)
    for _ in range(2):
        client.post(CODE, {"code": wrong(device)})
    limited = client.post(CODE, {"code": code_now(device)}).content.decode()
    assert "Too many failed sign-in attempts from your address" in limited


def test_the_code_step_without_a_password_first_or_after_its_time_sends_back_to_sign_in(settings):
    assert Client().get(CODE)["Location"] == LOGIN
    staff = StaffFactory()
    device, _codes = enrol(staff)
    client, _ = password_step(staff)
    session = client.session
    session["staff_mfa_pending"]["since"] -= settings.STAFF_MFA_STEP_MINUTES * 60 + 1
    session.save()
    answer = client.post(CODE, {"code": code_now(device)})
    assert answer.status_code == 302 and answer["Location"] == LOGIN
    assert "_auth_user_id" not in client.session


def test_a_new_password_meanwhile_voids_the_step():
    staff = StaffFactory()
    device, _codes = enrol(staff)
    client, _ = password_step(staff)
    staff.set_password("A-brand-new-passphrase-9")
    staff_password_save(staff=staff, actor=None)
    assert client.post(CODE, {"code": code_now(device)})["Location"] == LOGIN


def test_a_required_role_is_sent_to_set_up_its_app_after_the_password(settings):
    settings.STAFF_MFA_REQUIRED_ROLES = ["mlro"]
    staff = StaffFactory(role="mlro")
    client, answer = password_step(staff)
    assert answer["Location"] == SET_UP and "_auth_user_id" not in client.session
    page = client.get(SET_UP).content.decode()
    assert "<svg" in page and "QR code to scan with an authenticator app" in page
    secret = re.search(r'data-testid="mfa-secret">([A-Z2-7]+)<', page).group(1)
    device = mfa.totp_device(staff, confirmed=False)
    assert secret == mfa.base32_secret(device)
    assert client.get(SET_UP).content.decode().count(secret) == 1  # a reload keeps the same secret
    assert "That code is wrong" in client.post(SET_UP, {"code": wrong(device)}).content.decode()
    shown = client.post(SET_UP, {"code": code_now(device)})
    assert shown.status_code == 200 and "no-store" in shown["Cache-Control"]
    codes = re.findall(r"<li><code>([a-z2-7]{4}-[a-z2-7]{4})</code></li>", shown.content.decode())
    assert len(codes) == 10
    assert signed_in(client) and mfa.is_enrolled(staff)
    assert AuditLog.objects.filter(action="staff.mfa_enrol", actor=staff).count() == 1
    # the next sign-in asks for the code
    assert password_step(staff)[1]["Location"] == CODE


def test_roles_the_setting_does_not_name_are_not_asked_to_set_up(settings):
    settings.STAFF_MFA_REQUIRED_ROLES = ["mlro"]
    client, answer = password_step(StaffFactory(role="finance"))
    assert answer["Location"] == "/admin/" and signed_in(client)
