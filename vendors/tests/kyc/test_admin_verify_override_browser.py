"""In a real browser (Debian's chromium): a compliance officer asks to verify a vendor whose documents are not all
approved ("Verify anyway (needs a second person)"), and an MLRO finds the request in "Waiting for my approval",
reads the gaps in words and approves it with a reason: the vendor is verified. axe checks each view;
``/work/notes/shots/vendor-override/`` keeps the pictures (``VENDOR_OVERRIDE_SHOTS`` names another folder)."""

import os
from pathlib import Path

import pytest
from django.urls import reverse

from backoffice.models import ApprovalRequest
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import signed_in_page
from backoffice.tests.factories import StaffFactory
from vendors.choices import VERIFY_OVERRIDE_KIND
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("approved_documents_required")]
SHOTS = Path(os.environ.get("VENDOR_OVERRIDE_SHOTS", "/work/notes/shots/vendor-override"))


def shot(page, name: str, locator=None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    (locator or page).screenshot(path=str(SHOTS / f"{name}.png"), **({} if locator else {"full_page": True}))


@pytest.mark.django_db(transaction=True)
def test_an_officer_asks_to_verify_anyway_and_an_mlro_approves_in_the_queue(
    browser, live_server, media, store_documents
):
    vendor = Vendor.objects.create(
        business_name="Lobamba Crafts", email="crafts@example.com", phone_number="+26878000004", password="!"
    )
    store_documents(vendor)  # six required documents in, none reviewed yet
    asker = StaffFactory(role="compliance_officer", first_name="Nomsa", last_name="Dlamini")
    # made before the browser starts (SQLite's shared-cache test database: no write while a page loads)
    checker = StaffFactory(role="mlro", first_name="Sipho", last_name="Nkosi")
    page = signed_in_page(browser, live_server, asker)
    url = live_server.url + reverse("admin:vendors_vendor_change", args=[vendor.pk])
    page.goto(url)
    assert page.locator("[data-decision=VERIFIED]").count() == 0
    form = page.locator("#kyc-override")
    assert "Verify anyway (needs a second person)" in form.inner_text()
    assert serious_violations(page) == []
    shot(page, "vendor-page-verify-anyway", page.locator("#kyc"))

    form.locator("input[name=reason]").fill("Director's papers seen at the Manzini branch")
    form.locator("[data-testid=verify-anyway]").click()
    page.wait_for_load_state()
    assert "now waits for a second person" in page.content()
    assert page.locator("[data-testid=override-pending]").count() == 1
    assert page.locator("[data-testid=kyc-status]").get_attribute("data-status") == "UNDER_REVIEW"
    assert serious_violations(page) == []
    shot(page, "vendor-page-override-waits", page.locator("#kyc"))

    page = signed_in_page(browser, live_server, checker)
    page.goto(live_server.url + reverse("admin:backoffice_approvalrequest_changelist"))
    row = page.get_by_text("Verify vendor Lobamba Crafts without every required document approved")
    assert row.count() >= 1
    assert serious_violations(page) == []
    shot(page, "queue-with-override")
    request = ApprovalRequest.objects.get(kind=VERIFY_OVERRIDE_KIND)
    page.goto(live_server.url + reverse("admin:backoffice_approvalrequest_change", args=[request.pk]))
    assert "Not approved when asked: Tax clearance: Not reviewed" in page.content()
    assert serious_violations(page) == []
    shot(page, "override-request-page")

    page.goto(page.url.replace("/change/", "/approve/"))
    page.locator("textarea[name=reason], input[name=reason]").first.fill("Branch visit report on file")
    page.get_by_role("button", name="Approve").first.click()
    page.wait_for_load_state()
    assert "Approved and applied" in page.content()
    shot(page, "override-approved")
    assert Vendor.objects.get(pk=vendor.pk).kyc_status == "VERIFIED"
