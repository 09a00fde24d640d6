"""The admin credit form in a real browser: sign in, open a user, credit, see the new balance."""

import os
from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.tests.factories import PASSWORD, StaffFactory
from kyc.models import Transaction
from kyc.tests.factories import PlatformUserFactory

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


@pytest.fixture
def page(live_server):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        page = browser.new_page()
        page.set_default_timeout(15000)
        yield page
        browser.close()


def sign_in(page, live_server, staff):
    page.goto(live_server.url + reverse("admin:login") + "?next=" + reverse("admin:index"))
    page.fill("input[name=username]", staff.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(live_server.url + reverse("admin:index"))


@pytest.mark.django_db(transaction=True)
def test_finance_credits_a_wallet_from_the_user_page(page, live_server):
    staff = StaffFactory(role="finance")
    user = PlatformUserFactory(first_name="Busisiwe", last_name="Motsa")
    sign_in(page, live_server, staff)

    page.goto(live_server.url + reverse("admin:kyc_platformuser_change", args=[user.pk]))
    page.get_by_role("link", name="Credit wallet").click()
    page.wait_for_selector("#credit-form")
    page.fill("input[name=amount]", "250.75")
    page.fill("input[name=reason]", "Launch promotion")

    # without the confirmation the form comes back and nothing is credited
    page.click("#credit-form button[type=submit]")
    page.wait_for_selector("#credit-form .vk-error")
    assert not Transaction.objects.filter(user=user).exists()

    page.check("input[name=confirm]")
    page.click("#credit-form button[type=submit]")
    page.wait_for_url(live_server.url + reverse("admin:kyc_platformuser_change", args=[user.pk]))
    assert "balance now SZL 250.75" in page.content()

    user.refresh_from_db()
    assert user.balance == Decimal("250.75")
    row = Transaction.objects.get(user=user)
    assert (row.type, row.reason, row.actor_id) == ("ADMIN_CREDIT", "Launch promotion", staff.pk)
