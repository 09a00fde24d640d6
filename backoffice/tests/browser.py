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


@pytest.fixture(scope="session")
def _playwright():
    """Playwright's driver, started once per test process (a second each time before) and only when a browser test
    asks for it. Its sync API keeps an event loop running in this thread from then on, so Django's check against
    ORM calls from async code is turned off for the rest of the process, as it was during each browser test."""
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        yield {"playwright": pw, "chromium": None}


@pytest.fixture
def browser(live_server, _playwright):
    """A headless chromium, one per test process, launched again if it went away; each test opens its own
    contexts (cookies, storage), closed when it ends, so no test sees another's session."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"chromium not found at {CHROMIUM}: install Debian's chromium (.ci/run does) to run browser tests")
    chromium = _playwright["chromium"]
    if chromium is None or not chromium.is_connected():
        chromium = _playwright["playwright"].chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        _playwright["chromium"] = chromium
    try:
        yield chromium
    finally:
        for context in chromium.contexts:
            context.close()


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
