"""The vendor KYC pages of the admin site: who sees what, and each button going through the services."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from backoffice.tests.uploads.corpus import gps_exif, handmade_pdf, jpeg
from vendors.models import Vendor, VendorDocument

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN])
def test_readers_open_the_list_and_the_vendor_page(vendor, store_documents, role):
    store_documents(vendor, approve=True)  # the Verify button shows once every required document is approved
    client = browser(role)
    listing = client.get(reverse("admin:vendors_vendor_changelist"))
    assert listing.status_code == 200 and vendor.business_name in listing.content.decode()
    page = client.get(page_of(vendor)).content.decode()
    assert 'data-testid="kyc-status" data-status="UNDER_REVIEW">under review<' in page  # words, not the code
    assert page.count('class="vkyc-slot ') == 8
    writes = 'data-action="upload-' in page
    decides = 'data-decision="VERIFIED"' in page
    assert (writes, decides) == ((True, True) if role != StaffRole.SUPPORT else (False, False))


def test_finance_sees_no_vendor_pages(vendor):
    client = browser(StaffRole.FINANCE)
    assert client.get(reverse("admin:vendors_vendor_changelist")).status_code == 403
    assert client.get(page_of(vendor)).status_code == 403
    assert "Vendor KYC" not in client.get("/admin/").content.decode()


def test_support_cannot_press_the_buttons_by_hand(vendor, store_documents, media):
    [document] = store_documents(vendor, ["taxClearance"])
    client = browser(StaffRole.SUPPORT)
    upload = {"document_key": "other", "file": SimpleUploadedFile("a.pdf", handmade_pdf())}
    assert client.post(kyc_url(vendor, "upload"), upload).status_code == 403
    assert client.post(kyc_url(vendor, "delete"), {"document_key": "taxClearance"}).status_code == 403
    review = {"document_key": "taxClearance", "decision": "APPROVED"}
    assert client.post(kyc_url(vendor, "review"), review).status_code == 403
    assert client.post(kyc_url(vendor, "decide"), {"status": "VERIFIED"}).status_code == 403
    assert VendorDocument.objects.get(pk=document.pk).review_decision == ""


def test_upload_review_and_decide_from_the_page(vendor, store_documents, media):
    store_documents(vendor, ["companyRegistration", "taxClearance", "businessLicense", "bankStatement", "directorId"])
    client = browser(StaffRole.COMPLIANCE_OFFICER)
    photo = jpeg(size=(90, 60), exif=gps_exif())
    response = client.post(
        kyc_url(vendor, "upload"),
        {"document_key": "proofOfAddress", "file": SimpleUploadedFile("Utility Bill.jpg", photo)},
        follow=True,
    )
    assert any("Proof of address uploaded" in m and "Location and camera data" in m for m in messages_of(response))
    assert Vendor.objects.get(pk=vendor.pk).kyc_status == "UNDER_REVIEW"

    response = client.post(
        kyc_url(vendor, "review"),
        {"document_key": "bankStatement", "decision": "REREQUESTED", "reason_code": "UNREADABLE", "note": "dark"},
        follow=True,
    )
    assert any("asked for again (Unreadable)" in m for m in messages_of(response))
    assert Vendor.objects.get(pk=vendor.pk).kyc_status == "DOCUMENTS_SUBMITTED"

    response = client.post(kyc_url(vendor, "decide"), {"status": "VERIFIED"}, follow=True)
    assert messages_of(response) == ["Cannot move vendor KYC from documents submitted to verified"]

    client.post(
        kyc_url(vendor, "review"),
        {"document_key": "bankStatement", "decision": "APPROVED", "expiry_date": "2099-01-31", "issue_date": ""},
    )
    document = VendorDocument.objects.get(vendor=vendor, document_key="bankStatement")
    assert document.review_decision == "APPROVED" and str(document.expiry_date) == "2099-01-31"
    # who uploaded or approved its documents does not decide on the vendor: a second officer does
    response = client.post(kyc_url(vendor, "decide"), {"status": "REJECTED", "reason": "Shell company"}, follow=True)
    assert any("neither uploaded nor approved" in m for m in messages_of(response))
    assert Vendor.objects.get(pk=vendor.pk).kyc_status == "UNDER_REVIEW"
    client = browser(StaffRole.COMPLIANCE_OFFICER)
    response = client.post(kyc_url(vendor, "decide"), {"status": "REJECTED", "reason": "Shell company"}, follow=True)
    assert Vendor.objects.get(pk=vendor.pk).kyc_status == "REJECTED"
    assert "Shell company" in response.content.decode()  # the history shows the reason


def test_a_refused_upload_is_a_message_and_stores_nothing(vendor, media):
    client = browser(StaffRole.ADMIN)
    response = client.post(
        kyc_url(vendor, "upload"),
        {"document_key": "taxClearance", "file": SimpleUploadedFile("tax.pdf", b"<html>not a pdf</html>")},
        follow=True,
    )
    assert messages_of(response) == ["Tax clearance: Invalid file type: The content is not PDF, JPEG or PNG"]
    assert not VendorDocument.objects.exists()
    response = client.post(kyc_url(vendor, "upload"), {"document_key": "taxClearance"}, follow=True)
    assert messages_of(response) == ["Tax clearance: No file uploaded"]


def test_an_upload_over_the_cap_is_refused_while_it_arrives(vendor, media, settings):
    from backoffice.uploads import VENDOR_KYC

    client = browser(StaffRole.ADMIN)
    content = handmade_pdf() + b"%" * VENDOR_KYC.max_bytes
    response = client.post(
        kyc_url(vendor, "upload"), {"document_key": "bankStatement", "file": SimpleUploadedFile("big.pdf", content)}
    )
    assert response.status_code == 302
    follow = client.get(response["Location"])
    assert any(m.startswith("File size exceeds limit") for m in messages_of(follow))
    assert not VendorDocument.objects.exists()


def test_delete_from_the_page(vendor, store_documents, media, django_capture_on_commit_callbacks):
    [document] = store_documents(vendor, ["other"])
    client = browser(StaffRole.MLRO)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(kyc_url(vendor, "delete"), {"document_key": "other"})
    assert not VendorDocument.objects.exists() and not (media / document.key).exists()


@pytest.mark.parametrize("key", ["companyRegistration", "taxClearance"])
def test_previews_are_pngs_drawn_on_the_server(vendor, store_documents, key):
    store_documents(vendor, ["companyRegistration", "taxClearance"])  # a PDF, then a PNG
    client = browser(StaffRole.SUPPORT)
    for size, side in (("", 480), ("large", 1024)):
        url = reverse("admin:vendors_vendor_kyc_preview", args=[vendor.pk, key]) + (f"?size={size}" if size else "")
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        image = Image.open(io.BytesIO(response.content))
        assert image.format == "PNG" and max(image.size) <= side


def test_a_preview_of_an_empty_slot_or_another_vendor_is_404(vendor, store_documents):
    from vendors.tests.factories import VendorFactory

    store_documents(VendorFactory(), ["taxClearance"])
    client = browser(StaffRole.ADMIN)
    assert client.get(reverse("admin:vendors_vendor_kyc_preview", args=[vendor.pk, "taxClearance"])).status_code == 404


def test_the_list_filters_by_status_and_expiry(vendor, store_documents):
    import datetime as dt

    from vendors.models import today
    from vendors.tests.factories import VendorFactory

    soon, later = VendorFactory(business_name="Soon Ltd"), VendorFactory(business_name="Later Ltd")
    for v, days in ((soon, 12), (later, 90)):
        [d] = store_documents(v, ["taxClearance"])
        VendorDocument.objects.filter(pk=d.pk).update(expiry_date=today() + dt.timedelta(days=days))
    client = browser(StaffRole.SUPPORT)
    url = reverse("admin:vendors_vendor_changelist")
    page = client.get(url + "?expiry=soon").content.decode()
    assert "Soon Ltd" in page and "Later Ltd" not in page and vendor.business_name not in page
    page = client.get(url + "?kyc_status=PENDING").content.decode()
    assert vendor.business_name in page and "Soon Ltd" not in page


def test_the_dashboard_counts_vendors_awaiting_a_decision_for_readers_only(vendor, store_documents):
    store_documents(vendor)
    page = browser(StaffRole.SUPPORT).get("/admin/").content.decode()
    assert "Vendors awaiting a KYC decision" in page
    assert "Vendors awaiting a KYC decision" not in browser(StaffRole.FINANCE).get("/admin/").content.decode()
