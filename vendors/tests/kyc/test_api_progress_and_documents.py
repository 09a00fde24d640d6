"""GET .../kyc/progress and .../kyc/documents, DELETE .../kyc/documents: shapes, counts, who may, which keys."""

import datetime as dt
import uuid

import pytest

from backoffice.tests.uploads.corpus import handmade_pdf
from vendors.choices import REQUIRED_DOCUMENT_KEYS
from vendors.models import VendorDocument, today
from vendors.tests.factories import VendorFactory

from .helpers import error_of, stored_files

pytestmark = pytest.mark.django_db

ALL_KEYS = [*REQUIRED_DOCUMENT_KEYS, "tradingLicense", "other"]


def progress_of(client, vendor) -> dict:
    response = client.get(f"/api/v1/admin/vendors/{vendor.pk}/kyc/progress")
    assert response.status_code == 200, response.json()
    return response.json()["data"]


def test_a_new_vendor_is_pending_with_everything_missing(clients, vendor):
    data = progress_of(clients["support"], vendor)
    assert data["vendorId"] == str(vendor.pk) and data["verificationStatus"] == "PENDING"
    assert (data["totalRequired"], data["totalCompleted"], data["progressPercentage"]) == (6, 0, 0)
    assert data["missingDocuments"] == list(REQUIRED_DOCUMENT_KEYS)
    assert list(data["documents"]) == ALL_KEYS
    for key, entry in data["documents"].items():
        assert entry["required"] is (key in REQUIRED_DOCUMENT_KEYS)
        assert (entry["uploaded"], entry["url"], entry["uploadedAt"], entry["review"], entry["expiryDate"]) == (
            False,
            None,
            None,
            None,
            None,
        )
        assert entry["status"] == "MISSING"


@pytest.mark.parametrize(("count", "percentage"), [(1, 17), (2, 33), (3, 50), (4, 67), (5, 83), (6, 100)])
def test_progress_counts_the_required_documents_in(clients, vendor, store_documents, count, percentage):
    store_documents(vendor, REQUIRED_DOCUMENT_KEYS[:count])
    data = progress_of(clients["support"], vendor)
    assert (data["totalCompleted"], data["progressPercentage"]) == (count, percentage)
    assert data["missingDocuments"] == list(REQUIRED_DOCUMENT_KEYS[count:])
    assert data["verificationStatus"] == ("UNDER_REVIEW" if count == 6 else "DOCUMENTS_SUBMITTED")
    entry = data["documents"][REQUIRED_DOCUMENT_KEYS[0]]
    assert entry["uploaded"] is True and entry["status"] == "UPLOADED" and entry["url"].startswith("http")
    assert entry["uploadedAt"].endswith("Z")


def test_optional_documents_never_count_towards_the_six(clients, vendor, store_documents):
    store_documents(vendor, ["tradingLicense", "other"])
    data = progress_of(clients["support"], vendor)
    assert (data["totalCompleted"], data["verificationStatus"]) == (0, "DOCUMENTS_SUBMITTED")
    assert data["documents"]["other"]["uploaded"] is True and data["documents"]["other"]["required"] is False


def test_the_listing_has_the_interfaces_fields_in_slot_order(clients, vendor, store_documents, api):
    documents = store_documents(vendor, ["other", "taxClearance", "companyRegistration"])
    response = clients["support"].get(f"/api/v1/admin/vendors/{vendor.pk}/kyc/documents")
    assert response.status_code == 200
    items = response.json()["data"]
    assert [i["documentType"] for i in items] == ["companyRegistration", "taxClearance", "other"]
    by_key = {d.key: d for d in documents}
    for item in items:
        assert {"key", "url", "size", "lastModified", "documentType"} <= set(item)
        document = by_key[item["key"]]
        assert item["size"] == document.size and item["lastModified"].endswith("Z")
        fetched = api.get(item["url"])
        assert fetched.status_code == 200 and len(b"".join(fetched.streaming_content)) == item["size"]


def test_the_listing_of_a_vendor_without_documents_is_empty(clients, vendor):
    response = clients["support"].get(f"/api/v1/admin/vendors/{vendor.pk}/kyc/documents")
    assert response.status_code == 200 and response.json()["data"] == []


@pytest.mark.parametrize("path", ["progress", "documents"])
def test_reads_of_an_unknown_vendor_are_404(clients, path):
    response = clients["support"].get(f"/api/v1/admin/vendors/{uuid.uuid4()}/kyc/{path}")
    error_of(response, 404, "Vendor not found")


def delete(client, vendor_id, body):
    return client.delete(f"/api/v1/admin/vendors/{vendor_id}/kyc/documents", body, format="json")


def test_delete_by_full_key_removes_row_and_file(
    clients, vendor, store_documents, media, django_capture_on_commit_callbacks
):
    [document] = store_documents(vendor, ["taxClearance"])
    with django_capture_on_commit_callbacks(execute=True):
        response = delete(clients["compliance_officer"], vendor.pk, {"key": document.key})
    assert response.status_code == 200
    assert response.json() == {
        "success": True,
        "message": "Document deleted",
        "data": {"key": document.key, "verificationStatus": "PENDING"},
    }
    assert not VendorDocument.objects.exists() and stored_files(media) == []


def test_another_vendors_key_or_an_unknown_one_is_404_and_deletes_nothing(clients, vendor, store_documents, media):
    other = VendorFactory()
    [theirs] = store_documents(other, ["taxClearance"])
    [mine] = store_documents(vendor, ["taxClearance"])
    unknown = f"vendors/{vendor.pk}/kyc/bankStatement_none.pdf"
    # the slot's name is not its key: delete takes the full storage key only
    for key in (theirs.key, mine.key + "x", unknown, "../" + mine.key, mine.document_key, mine.key.upper()):
        response = delete(clients["compliance_officer"], vendor.pk, {"key": key})
        assert error_of(response, 404, "Document not found")["code"] == "NOT_FOUND"
    assert VendorDocument.objects.count() == 2 and len(stored_files(media)) == 2


@pytest.mark.parametrize("body", [{}, {"key": ""}, {"key": None}, {"key": 12}])
def test_delete_without_a_key_is_400(clients, vendor, body):
    error_of(delete(clients["compliance_officer"], vendor.pk, body), 400, "Key is required")


def test_delete_for_an_unknown_vendor_is_404(clients):
    error_of(delete(clients["compliance_officer"], uuid.uuid4(), {"key": "x"}), 404, "Vendor not found")


def test_deleting_a_required_document_takes_the_vendor_out_of_review(clients, vendor, store_documents):
    documents = store_documents(vendor)
    assert progress_of(clients["support"], vendor)["verificationStatus"] == "UNDER_REVIEW"
    response = delete(clients["admin"], vendor.pk, {"key": documents[2].key})
    assert response.json()["data"]["verificationStatus"] == "DOCUMENTS_SUBMITTED"
    data = progress_of(clients["support"], vendor)
    assert data["missingDocuments"] == [documents[2].document_key] and data["totalCompleted"] == 5


def test_a_document_whose_expiry_passed_counts_as_missing_on_the_next_read(clients, vendor, store_documents):
    documents = store_documents(vendor)
    VendorDocument.objects.filter(pk=documents[0].pk).update(expiry_date=today() - dt.timedelta(days=1))
    data = progress_of(clients["support"], vendor)
    assert data["verificationStatus"] == "DOCUMENTS_SUBMITTED"
    assert data["missingDocuments"] == [documents[0].document_key]
    assert data["documents"][documents[0].document_key]["status"] == "EXPIRED"
    assert vendor.kyc_changes.last().actor is None  # a system move, in the history


def test_the_same_file_for_two_vendors_is_flagged(clients, vendor, upload):
    content = handmade_pdf(catalog_extra=b"/Lang (ss)")
    other = VendorFactory(business_name="Copy Cat Traders")
    upload(other, "bankStatement", content, "statement.pdf")
    data = upload(vendor, "bankStatement", content, "mine.pdf").json()["data"]
    assert data["duplicates"] == [
        {"vendorId": str(other.pk), "businessName": "Copy Cat Traders", "documentKey": "bankStatement"}
    ]
    entry = progress_of(clients["support"], other)["documents"]["bankStatement"]
    assert entry["duplicates"][0]["vendorId"] == str(vendor.pk)
