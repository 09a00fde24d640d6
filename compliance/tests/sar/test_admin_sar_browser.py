"""The SAR workflow buttons in a real browser: each person sees only their move, and pressing it moves the SAR."""

import os

import pytest
from django.urls import reverse

from backoffice.tests.factories import PASSWORD
from compliance.choices import SARStatus
from compliance.models import SAR

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed at /usr/bin/chromium"),
]


@pytest.fixture
def browser(live_server):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
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
        yield chromium
        chromium.close()


def signed_in_page(browser, live_server, staff):
    """A fresh browser context (its own cookies) signed in as ``staff``."""
    page = browser.new_context().new_page()
    page.set_default_timeout(15000)
    page.goto(live_server.url + reverse("admin:login") + "?next=" + reverse("admin:index"))
    page.fill("input[name=username]", staff.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(live_server.url + reverse("admin:index"))
    return page


def move_buttons(page):
    return sorted(b.get_attribute("data-move") for b in page.locator("#sar-workflow button[data-move]").all())


@pytest.mark.django_db(transaction=True)
def test_filer_then_reviewer_then_mlro_move_a_sar_with_the_buttons(browser, live_server, crew, make_sar):
    sar = make_sar()
    url = live_server.url + reverse("admin:compliance_sar_change", args=[sar.pk])

    filer = signed_in_page(browser, live_server, crew["filer"])
    filer.goto(url)
    assert move_buttons(filer) == ["PENDING_REVIEW"]
    filer.fill("#sar-workflow input[name=note]", "Ready for a second pair of eyes")
    filer.click("#sar-workflow button[data-move=PENDING_REVIEW]")
    filer.wait_for_selector("[data-testid=sar-no-moves]")
    assert filer.locator("[data-testid=sar-status]").inner_text() == "PENDING_REVIEW"
    assert "Ready for a second pair of eyes" in filer.content()
    assert move_buttons(filer) == []  # four eyes: the filer cannot review their own report

    reviewer = signed_in_page(browser, live_server, crew["reviewer"])
    reviewer.goto(url)
    assert move_buttons(reviewer) == ["PENDING_APPROVAL"]
    reviewer.click("#sar-workflow button[data-move=PENDING_APPROVAL]")
    reviewer.wait_for_selector("[data-testid=sar-no-moves]")  # only the MLRO approves
    assert reviewer.locator("[data-testid=sar-status]").inner_text() == "PENDING_APPROVAL"

    mlro = signed_in_page(browser, live_server, crew["approver"])
    mlro.goto(url)
    assert move_buttons(mlro) == ["SUBMITTED"]
    mlro.click("#sar-workflow button[data-move=SUBMITTED]")
    mlro.wait_for_selector("#sar-workflow button[data-move=ACKNOWLEDGED]")

    sar = SAR.objects.get(pk=sar.pk)
    assert sar.status == SARStatus.SUBMITTED
    assert (sar.filed_by, sar.reviewed_by, sar.approved_by) == (crew["filer"], crew["reviewer"], crew["approver"])
    assert [t.actor for t in sar.transitions.all()] == [crew["filer"], crew["reviewer"], crew["approver"]]
