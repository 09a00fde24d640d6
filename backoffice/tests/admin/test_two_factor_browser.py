"""Two-factor sign-in in chromium: a staff member sets up an app on their own page (QR code, first code, recovery
codes), signs out, and signs in again with the password then a code computed by django-otp from the secret the
page showed; a required role is sent to set up its app right after the password. axe on every page.

Screenshots go to ``SHOTS_DIR`` when set (the reviewer's folder), else the test's temporary folder."""

import os
import re
from pathlib import Path

import pytest

from backoffice.auth import mfa
from backoffice.choices import StaffRole
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import sign_in
from backoffice.tests.factories import PASSWORD, StaffFactory
from backoffice.tests.mfa import code_now, no_backoff  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_backoff")]


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("SHOTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return lambda page, name: page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def accessible(page):
    assert not serious_violations(page), serious_violations(page)


def test_a_compliance_officer_sets_up_the_app_then_signs_in_with_a_code(page, live_server, shots):
    staff = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER, email="nomsa@example.com")
    sign_in(page, live_server, staff.email)
    page.get_by_role("link", name="Two-factor sign-in").first.click()
    page.wait_for_selector("[data-testid=start-form]")
    accessible(page)
    page.get_by_role("button", name="Set up an authenticator app").click()
    page.wait_for_selector("[data-testid=mfa-qr] svg")
    secret = page.inner_text("[data-testid=mfa-secret]").strip()
    device = mfa.totp_device(staff, confirmed=False)
    assert secret == mfa.base32_secret(device)
    accessible(page)
    shots(page, "1-set-up-qr")
    page.get_by_label("Code from the app").fill(code_now(device, steps=-1, lasting=20))
    page.get_by_role("button", name="Confirm and turn on").click()
    page.wait_for_selector("[data-testid=recovery-codes]")
    codes = page.locator("[data-testid=recovery-codes] code").all_inner_texts()
    assert len(codes) == 10 and all(re.fullmatch(r"[a-z2-7]{4}-[a-z2-7]{4}", code) for code in codes)
    accessible(page)
    shots(page, "2-recovery-codes")
    page.get_by_role("link", name="I have saved them: continue").click()
    page.wait_for_selector("[data-testid=remove-form]")
    shots(page, "3-on")

    page.context.clear_cookies()  # signed out
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("input[name=username]", staff.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/login/code/")
    accessible(page)
    page.get_by_label("Code").fill("000000" if code_now(device) != "000000" else "111111")
    page.get_by_role("button", name="Verify").click()
    page.wait_for_selector("text=That code is wrong, expired or already used.")
    accessible(page)
    shots(page, "4-wrong-code")
    page.get_by_label("Code").fill(code_now(device))
    page.get_by_role("button", name="Verify").click()
    page.wait_for_url(f"{live_server.url}/admin/")
    shots(page, "5-signed-in")

    page.context.clear_cookies()  # and once with a recovery code
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("input[name=username]", staff.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.get_by_label("Code").fill(codes[0])
    page.get_by_role("button", name="Verify").click()
    page.wait_for_url(f"{live_server.url}/admin/")
    assert mfa.recovery_codes_left(staff) == 9


def test_a_required_role_sets_up_its_app_right_after_the_password(page, live_server, settings, shots):
    settings.STAFF_MFA_REQUIRED_ROLES = ["mlro"]
    staff = StaffFactory(role=StaffRole.MLRO, email="lindiwe@example.com")
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("input[name=username]", staff.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/login/set-up/")
    page.wait_for_selector("[data-testid=mfa-qr] svg")
    accessible(page)
    shots(page, "6-required-set-up")
    device = mfa.totp_device(staff, confirmed=False)
    assert page.inner_text("[data-testid=mfa-secret]").strip() == mfa.base32_secret(device)
    page.get_by_label("Code from the app").fill(code_now(device))
    page.get_by_role("button", name="Turn on and sign in").click()
    page.wait_for_selector("[data-testid=recovery-codes]")
    page.get_by_role("link", name="I have saved them: continue").click()
    page.wait_for_url(f"{live_server.url}/admin/")
    assert mfa.is_enrolled(staff)
