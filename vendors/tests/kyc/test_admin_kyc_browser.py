"""Upload and review vendor KYC documents from the vendor page in a real browser (Debian's chromium)."""

import pytest
from django.urls import reverse

from backoffice.tests.browser import signed_in_page
from backoffice.tests.factories import StaffFactory
from backoffice.tests.uploads.corpus import handmade_pdf, png
from vendors.models import Vendor, VendorDocument

pytestmark = pytest.mark.browser


def open_review(page, key: str) -> None:
    """Unfold the slot's review forms (open by default only while a document awaits review)."""
    page.eval_on_selector(f"#kyc-{key} details.vkyc-actions", "details => { details.open = true; }")


@pytest.mark.django_db(transaction=True)
def test_an_officer_uploads_reviews_and_decides_in_the_browser(browser, live_server, media, tmp_path, store_documents):
    vendor = Vendor.objects.create(
        business_name="Hlathikhulu Bakery", email="bakery@example.com", phone_number="+26878000001", password="!"
    )
    keys = ["companyRegistration", "businessLicense", "bankStatement", "directorId", "proofOfAddress"]
    store_documents(vendor, keys, approve=True)
    officer = StaffFactory(role="compliance_officer")
    # made before the browser starts: on SQLite's shared-cache test database a write from this
    # thread while the server thread still reads a page fails at once with "table is locked"
    second = StaffFactory(role="compliance_officer")
    scan = tmp_path / "Tax Clearance.pdf"
    scan.write_bytes(handmade_pdf())
    page = signed_in_page(browser, live_server, officer)
    page.goto(live_server.url + reverse("admin:vendors_vendor_change", args=[vendor.pk]))
    assert page.locator("[data-testid=state-taxClearance]").inner_text() == "MISSING"
    assert page.locator("[data-testid=kyc-status]").get_attribute("data-status") == "DOCUMENTS_SUBMITTED"

    page.set_input_files("input[data-upload=taxClearance]", str(scan))
    page.click("[data-action=upload-taxClearance]")
    page.wait_for_selector("[data-testid=state-taxClearance]:text('UPLOADED')")
    assert page.locator("[data-testid=kyc-status]").get_attribute("data-status") == "UNDER_REVIEW"
    assert page.locator("[data-testid=kyc-progress]").inner_text().startswith("6 / 6")
    # the preview is a PNG the server drew from the PDF, and it loaded
    preview = page.locator("#kyc-taxClearance .vkyc-preview img")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=preview.element_handle())
    assert VendorDocument.objects.get(vendor=vendor, document_key="taxClearance").key.endswith("Tax_Clearance.pdf")

    open_review(page, "bankStatement")
    page.select_option("#kyc-bankStatement [data-form=rerequest] select[name=reason_code]", "NAME_MISMATCH")
    page.fill("#kyc-bankStatement [data-form=rerequest] input[name=note]", "Account holder is someone else")
    page.click("[data-action=rerequest-bankStatement]")
    page.wait_for_selector("[data-testid=state-bankStatement]:text('REREQUESTED')")
    assert page.locator("[data-testid=kyc-status]").get_attribute("data-status") == "DOCUMENTS_SUBMITTED"
    assert "Name does not match the vendor" in page.locator("[data-testid=review-bankStatement]").inner_text()

    statement = tmp_path / "statement.png"
    statement.write_bytes(png(size=(200, 260)))
    page.set_input_files("input[data-upload=bankStatement]", str(statement))
    page.click("[data-action=upload-bankStatement]")
    page.wait_for_selector("[data-testid=state-bankStatement]:text('UPLOADED')")
    open_review(page, "bankStatement")
    page.fill("#kyc-bankStatement [data-form=approve] input[name=expiry_date]", "2099-12-31")
    page.click("[data-action=approve-bankStatement]")
    page.wait_for_selector("[data-testid=state-bankStatement]:text('APPROVED')")
    # the approved statement that was asked for again and replaced is kept as evidence, not deleted
    assert page.locator("[data-evidence=bankStatement]").count() == 1
    open_review(page, "taxClearance")
    page.click("[data-action=approve-taxClearance]")
    page.wait_for_selector("[data-testid=state-taxClearance]:text('APPROVED')")
    # who uploaded and approved the papers does not decide on the vendor (four eyes): no buttons, and why
    assert page.locator("[data-decision]").count() == 0
    assert "another officer decides" in page.locator("[data-testid=decision-four-eyes]").inner_text()

    page = signed_in_page(browser, live_server, second)
    page.goto(live_server.url + reverse("admin:vendors_vendor_change", args=[vendor.pk]))
    page.fill("#kyc-decision input[name=reason]", "Papers in order")
    page.click("[data-decision=VERIFIED]")
    page.wait_for_selector("[data-testid=kyc-status][data-status=VERIFIED]:text('verified')")
    assert "Papers in order" in page.content()
    vendor = Vendor.objects.get(pk=vendor.pk)
    assert vendor.kyc_status == "VERIFIED" and vendor.kyc_decided_by == second


@pytest.mark.django_db(transaction=True)
def test_support_sees_the_slots_without_any_button(browser, live_server, media, store_documents):
    vendor = Vendor.objects.create(
        business_name="Mankayane Motors", email="motors@example.com", phone_number="+26878000002", password="!"
    )
    store_documents(vendor)
    page = signed_in_page(browser, live_server, StaffFactory(role="support"))
    page.goto(live_server.url + reverse("admin:vendors_vendor_change", args=[vendor.pk]))
    assert page.locator(".vkyc-slot").count() == 8
    assert page.locator("[data-action], [data-decision], input[type=file]").count() == 0
    assert page.locator("[data-testid=kyc-status]").get_attribute("data-status") == "UNDER_REVIEW"
