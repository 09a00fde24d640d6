"""The vendor KYC answers that carry nulls (no dated document, empty slots, a review without dates) match the
OpenAPI document: a client generated from it must accept them."""

import pytest

from backoffice.tests.openapi import assert_documented
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db

KYC = "/api/v1/admin/vendors/{id}/kyc"


def test_the_vendor_list_with_no_dated_document_is_documented(clients, store_documents):
    VendorFactory(business_name="No documents yet")
    store_documents(VendorFactory(business_name="Undated documents"), ["taxClearance"])
    response = clients["support"].get("/api/v1/admin/vendors")
    assert [v["nextDocumentExpiry"] for v in response.json()["data"]] == [None, None]
    assert_documented(response, "GET", "/api/v1/admin/vendors/")


def test_progress_with_empty_and_unreviewed_slots_is_documented(clients, vendor, store_documents):
    store_documents(vendor, ["taxClearance"])
    response = clients["support"].get(f"/api/v1/admin/vendors/{vendor.pk}/kyc/progress")
    slots = response.json()["data"]["documents"]
    assert slots["bankStatement"]["key"] is None and slots["taxClearance"]["expiryDate"] is None
    assert_documented(response, "GET", f"{KYC}/progress/")


def test_a_review_without_dates_is_documented(clients, vendor, store_documents):
    (document,) = store_documents(vendor, ["taxClearance"])
    response = clients["compliance_officer"].put(
        f"/api/v1/admin/vendors/{vendor.pk}/kyc/documents/review",
        {"key": document.key, "decision": "APPROVED"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["data"]["expiryDate"], response.json()["data"]["issueDate"]) == (None, None)
    assert_documented(response, "PUT", f"{KYC}/documents/review/")
