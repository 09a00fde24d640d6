"""Fixtures of the vendor KYC tests: a vendor, staff clients of each role, real files, an upload helper."""

import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from backoffice.tests.uploads.corpus import handmade_pdf, jpeg, png
from vendors.choices import REQUIRED_DOCUMENT_KEYS
from vendors.services import vendor_document_review, vendor_document_upload
from vendors.tests.factories import VendorFactory


@pytest.fixture
def vendor(db):
    return VendorFactory(business_name="Mbabane Fresh Market")


@pytest.fixture
def officer(db):
    return StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)


@pytest.fixture
def clients(staff_client):
    """clients[role] -> an API client with a fresh staff member's token of that role."""
    return {role: staff_client(role)[0] for role in StaffRole.values}


def upload_url(vendor_id) -> str:
    return f"/api/v1/admin/vendors/{vendor_id}/kyc/upload"


def post_file(client, vendor_id, document_key, content: bytes, filename: str = "scan.pdf", **extra):
    data = {"file": SimpleUploadedFile(filename, content)}
    if document_key is not None:
        data["documentKey"] = document_key
    data.update(extra)
    return client.post(upload_url(vendor_id), data, format="multipart")


@pytest.fixture
def upload(media, clients):
    """upload(vendor, key, content=a PDF, filename="scan.pdf", role="compliance_officer") -> the response."""

    def run(vendor, document_key, content=None, filename="scan.pdf", role=StaffRole.COMPLIANCE_OFFICER):
        content = handmade_pdf() if content is None else content
        return post_file(clients[role], vendor.pk, document_key, content, filename)

    return run


@pytest.fixture
def approved_documents_required(settings):
    """The check ``make run`` and production switch on (off by default: the interface verifies any vendor under
    review)."""
    settings.VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS = True


@pytest.fixture
def store_documents(media, officer):
    """store_documents(vendor, keys=the six required, approve=False) -> the documents, stored through the service
    (and approved by the same officer with ``approve``, so anyone else may decide on the vendor)."""

    def run(vendor, keys=REQUIRED_DOCUMENT_KEYS, approve=False):
        documents = []
        for n, key in enumerate(keys):
            content = png(color=(n * 20, 90, 120)) if n % 2 else handmade_pdf(catalog_extra=b"/Lang (en-%d)" % n)
            name = f"{key}.png" if n % 2 else f"{key}.pdf"
            result = vendor_document_upload(
                vendor=vendor, actor=officer, document_key=key, file=SimpleUploadedFile(name, content)
            )
            document = result.document
            if approve:
                document = vendor_document_review(document=document, actor=officer, decision="APPROVED")
            documents.append(document)
        return documents

    return run


__all__ = ["handmade_pdf", "jpeg", "png", "post_file", "upload_url"]


def error_of(response, status: int, message: str) -> dict:
    body = response.json()
    assert response.status_code == status, body
    assert body["success"] is False and body["statusCode"] == status
    assert body["message"] == body["error"]["message"] == message, body
    return body["error"]


def stored_files(root) -> list[str]:
    return sorted(
        os.path.relpath(os.path.join(d, n), root) for d, _, names in os.walk(root) for n in names if "vendors" in d
    )
