"""Playwright driving Debian's chromium, for the admin-site tests of every app (loaded by the root conftest)."""

import os
import shutil

import pytest

from backoffice.tests.factories import PASSWORD

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def browser(live_server):
    """A headless chromium; each test opens its own contexts (cookies) and pages."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"chromium not found at {CHROMIUM}: install Debian's chromium (.ci/run does) to run browser tests")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's ORM must tolerate it
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def new_page(browser):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(20_000)
    return page


@pytest.fixture
def page(browser):
    return new_page(browser)


def sign_in(page, live_server, email, password=PASSWORD):
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("input[name=username]", email)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/")
    return page


def signed_in_page(browser, live_server, staff):
    """A fresh context (its own cookies) signed in as ``staff``."""
    return sign_in(new_page(browser), live_server, staff.email)


def shoot(page, name: str) -> None:
    """A full-page screenshot to ``$SHOTS_DIR/<name>.png`` when the run asks for them (a person looks at them)."""
    folder = os.environ.get("SHOTS_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)
