"""Who may call which vendor KYC endpoint: support reads, compliance staff write and decide, finance nothing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.tests.clients import bearer_client
from backoffice.tests.uploads.corpus import handmade_pdf
from vendors.models import VendorDocument
from vendors.services.accounts import KIND as VENDOR_KIND

pytestmark = pytest.mark.django_db

ROLES = ["support", "compliance_officer", "mlro", "finance", "admin"]
WRITERS = {"compliance_officer", "mlro", "admin"}
READERS = WRITERS | {"support"}


def call(client, operation, vendor):
    base = f"/api/v1/admin/vendors/{vendor.pk}/kyc"
    key = VendorDocument.objects.filter(vendor=vendor).values_list("key", flat=True).first()
    return {
        "list": lambda: client.get("/api/v1/admin/vendors"),
        "progress": lambda: client.get(f"{base}/progress"),
        "documents": lambda: client.get(f"{base}/documents"),
        "upload": lambda: client.post(
            f"{base}/upload",
            {"file": SimpleUploadedFile("a.pdf", handmade_pdf()), "documentKey": "other"},
            format="multipart",
        ),
        "delete": lambda: client.delete(f"{base}/documents", {"key": key}, format="json"),
        "review": lambda: client.put(f"{base}/documents/review", {"key": key, "decision": "APPROVED"}, format="json"),
        "status": lambda: client.put(f"{base}/status", {"status": "VERIFIED", "reason": "ok"}, format="json"),
    }[operation]()


ALLOWED = {
    "list": READERS,
    "progress": READERS,
    "documents": READERS,
    "upload": WRITERS,
    "delete": WRITERS,
    "review": WRITERS,
    "status": WRITERS,
}
SUCCESS = {"upload": 201}


@pytest.mark.parametrize("operation", sorted(ALLOWED))
def test_no_token_is_401(api, vendor, operation):
    response = call(api, operation, vendor)
    assert response.status_code == 401 and response.json()["error"]["code"] == "UNAUTHORIZED"


@pytest.mark.parametrize("operation", ["progress", "documents", "upload", "status"])
def test_a_vendors_own_token_opens_nothing_here(vendor, operation):
    client = bearer_client(VENDOR_KIND, vendor.pk)
    assert call(client, operation, vendor).status_code in (401, 403)
