"""GET /admin/vendors (beyond the interface): vendors with their KYC progress, filtered as the admin list is."""

import datetime as dt

import pytest

from vendors.models import VendorDocument, today
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db

BASE = "/api/v1/admin/vendors"


@pytest.fixture
def three(store_documents):
    pending = VendorFactory(business_name="Alpha Pending")
    partial = VendorFactory(business_name="Bravo Partial")
    complete = VendorFactory(business_name="Charlie Complete")
    store_documents(partial, ["taxClearance", "bankStatement"])
    documents = store_documents(complete)
    VendorDocument.objects.filter(pk=documents[0].pk).update(expiry_date=today() + dt.timedelta(days=10))
    VendorDocument.objects.filter(pk=documents[1].pk).update(expiry_date=today() + dt.timedelta(days=100))
    return pending, partial, complete


def names(response) -> list[str]:
    assert response.status_code == 200, response.json()
    return [v["businessName"] for v in response.json()["data"]]


def test_the_list_carries_status_and_progress(clients, three):
    response = clients["support"].get(BASE, {"sortBy": "businessName", "sortOrder": "asc"})
    body = response.json()
    assert body["pagination"]["total"] == 3
    rows = {v["businessName"]: v for v in body["data"]}
    assert [rows[n]["verificationStatus"] for n in ("Alpha Pending", "Bravo Partial", "Charlie Complete")] == [
        "PENDING",
        "DOCUMENTS_SUBMITTED",
        "UNDER_REVIEW",
    ]
    assert [rows[n]["progressPercentage"] for n in ("Alpha Pending", "Bravo Partial", "Charlie Complete")] == [
        0,
        33,
        100,
    ]
    assert rows["Charlie Complete"]["nextDocumentExpiry"] == (today() + dt.timedelta(days=10)).isoformat()


def test_filters_by_status_expiry_and_text(clients, three):
    client = clients["support"]
    assert names(client.get(BASE, {"verificationStatus": "UNDER_REVIEW"})) == ["Charlie Complete"]
    assert names(client.get(BASE, {"documentsExpiringWithinDays": 30})) == ["Charlie Complete"]
    assert names(client.get(BASE, {"documentsExpiringWithinDays": 5})) == []
    assert names(client.get(BASE, {"q": "bravo"})) == ["Bravo Partial"]
    ordered = names(client.get(BASE, {"sortBy": "progress", "sortOrder": "desc"}))
    assert ordered == ["Charlie Complete", "Bravo Partial", "Alpha Pending"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"verificationStatus": "DONE"}, "Invalid verification status"),
        ({"documentsExpiringWithinDays": "soon"}, "Invalid number of days"),
        ({"documentsExpiringWithinDays": 400}, "Invalid number of days"),
        ({"sortBy": "password"}, "Validation error"),
    ],
)
def test_bad_filters_are_400(clients, params, message):
    response = clients["support"].get(BASE, params)
    assert response.status_code == 400 and response.json()["message"] == message
