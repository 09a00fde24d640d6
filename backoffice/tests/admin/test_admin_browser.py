"""A staff member signs in to the admin site in a real browser and lands on the dashboard."""

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.browser import sign_in
from backoffice.tests.factories import StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_admin_signs_in_and_opens_the_dashboard(page, live_server, tmp_path):
    StaffFactory(email="ada@example.com", role=StaffRole.ADMIN, first_name="Ada")
    sign_in(page, live_server, "ada@example.com")
    assert "Good to see you, Ada" in page.inner_text("body")
    assert page.locator(".vk-card").count() >= 2
    page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
    page.click("text=Audit log")
    page.wait_for_url("**/admin/backoffice/auditlog/")


def test_a_wrong_password_keeps_the_staff_member_out(page, live_server):
    StaffFactory(email="ada@example.com")
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("input[name=username]", "ada@example.com")
    page.fill("input[name=password]", "not-the-password")
    page.click("button[type=submit], input[type=submit]")
    assert "/admin/login/" in page.url
    assert "correct" in page.inner_text("body").lower()
