"""The vendor page: no Verify button (and a forged one refused) until every required document is approved on its
own file; no Delete button (and a forged one refused) on a document a decision relied on; the superseded documents
kept as evidence, with their previews, for compliance roles only; their purge once the retention period ended."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from backoffice.tests.uploads.corpus import handmade_pdf
from vendors.choices import REQUIRED_DOCUMENT_KEYS
from vendors.models import Vendor, VendorDocument
from vendors.services import vendor_document_review, vendor_document_upload
from vendors.tests.factories import VendorFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("approved_documents_required")]


def browser(role) -> Client:
    client = Client()
    client.force_login(StaffFactory(role=role))
    return client


def page_of(vendor) -> str:
    return reverse("admin:vendors_vendor_change", args=[vendor.pk])


def kyc_url(vendor, name) -> str:
    return reverse(f"admin:vendors_vendor_kyc_{name}", args=[vendor.pk])


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def status_of(vendor) -> str:
    return Vendor.objects.get(pk=vendor.pk).kyc_status


def put(vendor, officer, key, content: bytes, name: str = "scan.pdf") -> VendorDocument:
    return vendor_document_upload(
        vendor=vendor, actor=officer, document_key=key, file=SimpleUploadedFile(name, content)
    ).document


@pytest.fixture
def flagged_vendor(vendor, officer, media):
    """The issue's vendor: 1 of 6 approved, three unreviewed slots holding the same file."""
    flagged = handmade_pdf(catalog_extra=b"/Lang (flagged)")
    for n, key in enumerate(REQUIRED_DOCUMENT_KEYS):
        same = key in ("businessLicense", "bankStatement", "directorId")
        document = put(vendor, officer, key, flagged if same else handmade_pdf(catalog_extra=b"/Lang (%d)" % n))
        if key == "companyRegistration":
            vendor_document_review(document=document, actor=officer, decision="APPROVED")
    assert status_of(vendor) == "UNDER_REVIEW"
    return vendor


def test_no_verify_button_while_documents_are_not_approved_and_a_forged_one_is_refused(flagged_vendor):
    client = browser(StaffRole.MLRO)
    page = client.get(page_of(flagged_vendor)).content.decode()
    assert 'data-decision="VERIFIED"' not in page and 'data-decision="REJECTED"' in page
    assert 'data-testid="verification-gaps"' in page
    for line in ("Tax clearance: Not reviewed", "Bank statement: The same file as Business licence"):
        assert line in page

    response = client.post(kyc_url(flagged_vendor, "decide"), {"status": "VERIFIED", "reason": "ok"}, follow=True)
    (message,) = messages_of(response)
    assert message.startswith("Every required document must be approved before the vendor is verified. Not yet: ")
    assert "Director's ID: The same file as Business licence" in message and "Proof of address: Not reviewed" in message
    assert status_of(flagged_vendor) == "UNDER_REVIEW"


def test_approving_the_same_file_three_times_still_counts_once(flagged_vendor, officer):
    for document in VendorDocument.objects.current().filter(vendor=flagged_vendor):
        if not document.review_decision:
            vendor_document_review(document=document, actor=officer, decision="APPROVED")
    client = browser(StaffRole.COMPLIANCE_OFFICER)
    assert 'data-decision="VERIFIED"' not in client.get(page_of(flagged_vendor)).content.decode()
    response = client.post(kyc_url(flagged_vendor, "decide"), {"status": "VERIFIED"}, follow=True)
    assert "Bank statement: The same file as Business licence" in messages_of(response)[0]
    assert status_of(flagged_vendor) == "UNDER_REVIEW"

    # a file of its own in each slot, approved: now the vendor can be verified from the page
    for n, key in enumerate(("bankStatement", "directorId")):
        document = put(flagged_vendor, officer, key, handmade_pdf(catalog_extra=b"/Lang (own-%d)" % n))
        vendor_document_review(document=document, actor=officer, decision="APPROVED")
    assert 'data-decision="VERIFIED"' in client.get(page_of(flagged_vendor)).content.decode()
    response = client.post(kyc_url(flagged_vendor, "decide"), {"status": "VERIFIED"}, follow=True)
    assert messages_of(response) == ["Mbabane Fresh Market is Verified."]
    assert status_of(flagged_vendor) == "VERIFIED"


def test_a_document_a_decision_relied_on_has_no_delete_and_a_forged_one_is_refused(flagged_vendor, media):
    client = browser(StaffRole.ADMIN)
    page = client.get(page_of(flagged_vendor)).content.decode()
    assert 'data-testid="kept-companyRegistration"' in page and 'data-action="delete-companyRegistration"' not in page
    assert 'data-action="delete-taxClearance"' in page  # nothing relied on it yet

    response = client.post(kyc_url(flagged_vendor, "delete"), {"document_key": "companyRegistration"}, follow=True)
    (message,) = messages_of(response)
    assert message.startswith(
        "Company registration: This document is kept as evidence of a KYC decision and cannot be deleted: "
        "A KYC decision relied on this document (reviewed on "
    )
    document = VendorDocument.objects.get(vendor=flagged_vendor, document_key="companyRegistration")
    assert (media / document.key).exists()


def test_the_evidence_table_the_preview_and_the_purge(
    flagged_vendor, officer, media, settings, django_capture_on_commit_callbacks
):
    old = VendorDocument.objects.get(vendor=flagged_vendor, document_key="companyRegistration")
    put(flagged_vendor, officer, "companyRegistration", handmade_pdf(catalog_extra=b"/Lang (new)"), "new.pdf")
    preview = reverse("admin:vendors_vendor_kyc_evidence_preview", args=[flagged_vendor.pk, old.pk])

    for role in (StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN):
        client = browser(role)
        page = client.get(page_of(flagged_vendor)).content.decode()
        assert 'data-evidence="companyRegistration"' in page and preview in page
        assert 'data-action="purge-' not in page  # kept: no purge offered within the period
        response = client.get(preview)
        assert response.status_code == 200 and response["Content-Type"] == "image/png"

    support = browser(StaffRole.SUPPORT)
    assert "Superseded documents kept as evidence" not in support.get(page_of(flagged_vendor)).content.decode()
    assert support.get(preview).status_code == 403
    # a current document's id, or another vendor's page, shows no evidence preview
    current = VendorDocument.objects.current().get(vendor=flagged_vendor, document_key="companyRegistration")
    client = browser(StaffRole.MLRO)
    other = reverse("admin:vendors_vendor_kyc_evidence_preview", args=[flagged_vendor.pk, current.pk])
    assert client.get(other).status_code == 404
    elsewhere = reverse("admin:vendors_vendor_kyc_evidence_preview", args=[VendorFactory().pk, old.pk])
    assert client.get(elsewhere).status_code == 404

    # a forged purge inside the period is refused
    purge = {"document_key": "companyRegistration", "key": old.key}
    response = client.post(kyc_url(flagged_vendor, "delete"), purge, follow=True)
    assert "Kept as evidence until" in messages_of(response)[0]
    assert VendorDocument.objects.filter(pk=old.pk).exists()

    # after the period the page offers the purge, and it deletes the row and (after commit) the file
    ended = timezone.now() - dt.timedelta(days=settings.VENDOR_KYC_RETENTION_DAYS + 1)
    VendorDocument.objects.filter(pk=old.pk).update(superseded_at=ended)
    assert f'data-action="purge-{old.pk}"' in client.get(page_of(flagged_vendor)).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(kyc_url(flagged_vendor, "delete"), purge, follow=True)
    assert messages_of(response) == ["Company registration: the superseded document scan.pdf was purged."]
    assert not VendorDocument.objects.filter(pk=old.pk).exists() and not (media / old.key).exists()
    assert VendorDocument.objects.current().filter(vendor=flagged_vendor, document_key="companyRegistration").exists()
