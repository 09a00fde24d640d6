"""A compliance officer walks a vendor page with superseded documents in a real browser (Debian's chromium): the
evidence table with its previews, the documents kept from deletion, and a verification refused while one file
stands in two required slots. axe checks each view; ``/work/notes/shots/vendor-evidence/`` keeps the pictures
(``VENDOR_EVIDENCE_SHOTS`` names another folder)."""

import os
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import signed_in_page
from backoffice.tests.factories import StaffFactory
from vendors.models import Vendor, VendorDocument
from vendors.services import vendor_document_review, vendor_document_upload

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("approved_documents_required")]
SHOTS = Path(os.environ.get("VENDOR_EVIDENCE_SHOTS", "/work/notes/shots/vendor-evidence"))


def shot(page, name: str, locator=None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    (locator or page).screenshot(path=str(SHOTS / f"{name}.png"), **({} if locator else {"full_page": True}))


@pytest.mark.django_db(transaction=True)
def test_an_officer_sees_superseded_documents_and_why_the_vendor_cannot_be_verified(
    browser, live_server, media, store_documents, officer
):
    vendor = Vendor.objects.create(
        business_name="Siteki Hardware", email="hardware@example.com", phone_number="+26878000003", password="!"
    )
    documents = {d.document_key: d for d in store_documents(vendor, approve=True)}
    # the statement is replaced by the very file already filed as the business licence: the approved statement
    # stays as evidence, and the copy is flagged
    licence = media / documents["businessLicense"].key
    vendor_document_upload(
        vendor=vendor,
        actor=officer,
        document_key="bankStatement",
        file=SimpleUploadedFile("Statement March.pdf", licence.read_bytes()),
    )
    reader = StaffFactory(role="compliance_officer", first_name="Nomsa", last_name="Dlamini")
    page = signed_in_page(browser, live_server, reader)
    url = live_server.url + reverse("admin:vendors_vendor_change", args=[vendor.pk])
    page.goto(url)

    assert page.locator("[data-testid=kyc-status]").get_attribute("data-status") == "UNDER_REVIEW"
    assert page.locator("[data-decision=VERIFIED]").count() == 0
    gaps = page.locator("[data-testid=verification-gaps]").inner_text()
    assert "Bank statement: The same file as Business licence" in gaps
    assert "Same file as" in page.locator("[data-testid=duplicate-bankStatement]").inner_text()
    # approved papers are kept: no Delete, and the reason in its place
    assert page.locator("[data-action=delete-companyRegistration]").count() == 0
    assert "Kept as evidence" in page.locator("[data-testid=kept-companyRegistration]").text_content()
    # the superseded statement, with its review, its preview (drawn by the server, loaded) and how long it stays
    row = page.locator("[data-evidence=bankStatement]")
    assert row.count() == 1 and "Approved" in row.inner_text() and "Statement March.pdf" in row.inner_text()
    thumb = row.locator("img")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=thumb.element_handle())
    kept = VendorDocument.objects.superseded().get(vendor=vendor)
    assert row.locator("[data-testid=kept-until]").inner_text() == f"{kept.retained_until():%Y-%m-%d}"
    assert row.locator("[data-action^=purge-]").count() == 0
    assert serious_violations(page) == []
    shot(page, "vendor-page-with-evidence")
    shot(page, "evidence-table", page.locator("#kyc-evidence"))

    # the copy approved as well still does not count twice: the page keeps refusing, and says why
    current = VendorDocument.objects.current().get(vendor=vendor, document_key="bankStatement")
    vendor_document_review(document=current, actor=officer, decision="APPROVED")
    page.goto(url)
    assert (
        "Bank statement: The same file as Business licence"
        in page.locator("[data-testid=verification-gaps]").inner_text()
    )
    assert page.locator("[data-decision=VERIFIED]").count() == 0
    assert serious_violations(page) == []
    shot(page, "decision-refused-same-file", page.locator("#kyc-decision"))
