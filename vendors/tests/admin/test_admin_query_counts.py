"""The vendor KYC admin pages cost the same number of queries however many vendors, documents and moves they show."""

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from vendors.choices import DocumentKey
from vendors.tests.factories import VendorFactory
from vendors.tests.kyc.helpers import officer, store_documents  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

COVERED = {"vendor"}


def test_every_admin_page_of_the_app_is_covered():
    assert registered_models("vendors") == COVERED


def test_vendor_list(store_documents):  # noqa: F811
    client = admin_browser()
    store_documents(VendorFactory())

    def more_vendors(n):
        for _ in range(n):
            store_documents(VendorFactory(), ["taxClearance", "other"])

    url = reverse("admin:vendors_vendor_changelist")
    assert_flat(client, url, more_vendors)
    assert_flat(client, url + "?expiry=soon&kyc_status=UNDER_REVIEW", more_vendors)


def test_vendor_page_with_its_slots_previews_and_history(store_documents, officer):  # noqa: F811
    from vendors.services import vendor_document_review

    client = admin_browser()
    vendor = VendorFactory()
    documents = store_documents(vendor, ["companyRegistration"])
    twin = VendorFactory()
    keys = [k for k in DocumentKey.values if k != "companyRegistration"]

    def more_documents_reviews_duplicates_and_history(n):
        added = store_documents(vendor, keys[:n])
        for document in added:
            vendor_document_review(document=document, actor=officer, decision="APPROVED")
        store_documents(twin, keys[:n])  # the same files elsewhere: flagged as duplicates
        vendor_document_review(document=documents[0], actor=officer, decision="REREQUESTED", reason_code="OTHER")

    url = reverse("admin:vendors_vendor_change", args=[vendor.pk])
    assert_flat(client, url, more_documents_reviews_duplicates_and_history, by=5)
    assert vendor.kyc_changes.count() >= 2


def test_a_preview_is_one_fixed_cost(store_documents):  # noqa: F811
    client = admin_browser()
    vendor = VendorFactory()
    store_documents(vendor, ["companyRegistration"])
    url = reverse("admin:vendors_vendor_kyc_preview", args=[vendor.pk, "companyRegistration"])
    assert_flat(client, url, lambda n: store_documents(vendor, ["other", "taxClearance"][:n]), by=2)
