"""Evidence kept: a document a review or a KYC decision relied on is never deleted while it is in its slot, a
replacement supersedes it (kept, retrievable by compliance roles) and it is purged only after the retention period.
A document nothing relied on is still replaced and deleted as the contract says."""

import datetime as dt

import pytest
from django.utils import timezone

from backoffice.errors import Conflict
from backoffice.models import AuditLog
from backoffice.tests.uploads.corpus import handmade_pdf
from vendors.models import VendorDocument
from vendors.services import vendor_document_review

from .helpers import error_of, stored_files

pytestmark = pytest.mark.django_db


def kyc(vendor, path: str = "") -> str:
    return f"/api/v1/admin/vendors/{vendor.pk}/kyc/{path}"


def review(client, vendor, key, decision="APPROVED", **extra):
    return client.put(kyc(vendor, "documents/review"), {"key": key, "decision": decision, **extra}, format="json")


def delete(client, vendor, key):
    return client.delete(kyc(vendor, "documents"), {"key": key}, format="json")


def new_paper(n: int) -> bytes:
    return handmade_pdf(catalog_extra=b"/Lang (en-%d)" % n)


def test_an_unreviewed_document_is_replaced_and_deleted_as_before(
    clients, vendor, upload, media, django_capture_on_commit_callbacks
):
    old = upload(vendor, "taxClearance", new_paper(1), "first.pdf").json()["data"]["key"]
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(vendor, "taxClearance", new_paper(2), "second.pdf")
    assert response.status_code == 201 and response.json()["data"]["replacedKey"] == old
    assert not VendorDocument.objects.filter(key=old).exists()
    assert old not in stored_files(media)
    assert clients["compliance_officer"].get(kyc(vendor, "documents/superseded")).json()["data"] == []


def test_a_reviewed_document_is_superseded_not_deleted(
    clients, vendor, upload, media, django_capture_on_commit_callbacks
):
    officer = clients["compliance_officer"]
    old = upload(vendor, "taxClearance", new_paper(1), "first.pdf").json()["data"]["key"]
    assert review(clients["mlro"], vendor, old, note="Clearance valid until March").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(vendor, "taxClearance", new_paper(2), "second.pdf")
    # the upload's answer is the contract's, unchanged
    assert response.status_code == 201 and response.json()["message"] == "Document replaced"
    new = response.json()["data"]["key"]
    assert response.json()["data"]["replacedKey"] == old

    kept = VendorDocument.objects.get(key=old)
    assert kept.superseded_at is not None and kept.superseded_by.key == new
    assert kept.review_decision == "APPROVED" and kept.review_note == "Clearance valid until March"
    assert old in stored_files(media) and new in stored_files(media)
    # the current answers know only the new paper
    listed = officer.get(kyc(vendor, "documents")).json()["data"]
    assert [d["key"] for d in listed] == [new]
    slot = officer.get(kyc(vendor, "progress")).json()["data"]["documents"]["taxClearance"]
    assert slot["key"] == new and slot["review"] is None
    # the compliance roles find the old one, with its review and how long it is kept
    for role in ("compliance_officer", "mlro", "admin"):
        body = clients[role].get(kyc(vendor, "documents/superseded")).json()
        (item,) = body["data"]
        assert item["key"] == old and item["supersededByKey"] == new
        assert item["review"]["decision"] == "APPROVED" and item["url"]
        until = dt.date.fromisoformat(item["retainedUntil"])
        assert until == kept.superseded_at.date() + dt.timedelta(days=5 * 365 + 1)
    audit = AuditLog.objects.filter(action="vendor.kyc.document.upload").order_by("-id").first()
    assert audit.changes["replaced_key"] == old and audit.changes["superseded"] is True


@pytest.mark.parametrize("role", ["support", "finance"])
def test_other_roles_do_not_see_the_superseded_documents(clients, vendor, role):
    response = clients[role].get(kyc(vendor, "documents/superseded"))
    assert response.status_code == 403 and response.json()["error"]["code"] == "FORBIDDEN"


def test_a_document_a_decision_relied_on_cannot_be_deleted(clients, vendor, upload, media):
    key = upload(vendor, "bankStatement").json()["data"]["key"]
    review(clients["mlro"], vendor, key, decision="REREQUESTED", reasonCode="UNREADABLE")
    response = delete(clients["admin"], vendor, key)
    error = error_of(response, 409, "This document is kept as evidence of a KYC decision and cannot be deleted")
    assert error["code"] == "RETENTION_HOLD"
    assert "upload a replacement" in error["details"]["key"][0] and "reviewed on" in error["details"]["key"][0]
    assert VendorDocument.objects.filter(key=key).exists() and key in stored_files(media)
    assert not AuditLog.objects.filter(action="vendor.kyc.document.delete").exists()


def test_the_documents_of_a_kyc_decision_are_kept_unreviewed_too(clients, vendor, store_documents, media):
    documents = store_documents(vendor)  # none reviewed: a rejection relies on them as they are
    decided = clients["mlro"].put(kyc(vendor, "status"), {"status": "REJECTED", "reason": "Shell"}, format="json")
    assert decided.status_code == 200, decided.json()
    response = delete(clients["compliance_officer"], vendor, documents[0].key)
    error = error_of(response, 409, "This document is kept as evidence of a KYC decision and cannot be deleted")
    assert "KYC decision of" in error["details"]["key"][0]


def test_a_superseded_document_is_purged_only_after_its_retention(
    clients, vendor, upload, media, settings, django_capture_on_commit_callbacks
):
    old = upload(vendor, "directorId", new_paper(1), "id.pdf").json()["data"]["key"]
    review(clients["mlro"], vendor, old)
    upload(vendor, "directorId", new_paper(2), "id-new.pdf")
    admin = clients["admin"]

    response = delete(admin, vendor, old)
    error = error_of(response, 409, "This document is kept as evidence of a KYC decision and cannot be deleted")
    until = VendorDocument.objects.get(key=old).retained_until()
    assert f"Kept as evidence until {until:%Y-%m-%d}" in error["details"]["key"][0]

    # the last day of the period is still kept; the day after, the same delete is its purge
    long_ago = timezone.now() - dt.timedelta(days=settings.VENDOR_KYC_RETENTION_DAYS)
    VendorDocument.objects.filter(key=old).update(superseded_at=long_ago)
    assert delete(admin, vendor, old).status_code == 409
    VendorDocument.objects.filter(key=old).update(superseded_at=long_ago - dt.timedelta(days=1))
    status_before = vendor.__class__.objects.get(pk=vendor.pk).kyc_status
    with django_capture_on_commit_callbacks(execute=True):
        response = delete(admin, vendor, old)
    assert response.status_code == 200, response.json()
    assert response.json()["message"] == "Document deleted" and response.json()["data"]["key"] == old
    assert not VendorDocument.objects.filter(key=old).exists() and old not in stored_files(media)
    # purging old evidence leaves the slot's current paper and the vendor's status alone
    assert VendorDocument.objects.current().filter(vendor=vendor, document_key="directorId").count() == 1
    assert vendor.__class__.objects.get(pk=vendor.pk).kyc_status == status_before
    entry = AuditLog.objects.get(action="vendor.kyc.document.delete")
    assert entry.changes["key"] == old and entry.changes["superseded_at"]


def test_a_superseded_document_is_not_reviewed_again(clients, vendor, upload):
    old = upload(vendor, "businessLicense", new_paper(1), "a.pdf").json()["data"]["key"]
    review(clients["mlro"], vendor, old)
    upload(vendor, "businessLicense", new_paper(2), "b.pdf")
    response = review(clients["mlro"], vendor, old, decision="REREQUESTED", reasonCode="OTHER")
    assert error_of(response, 404, "Document not found")["code"] == "NOT_FOUND"
    assert VendorDocument.objects.get(key=old).review_decision == "APPROVED"


def test_an_unreviewed_replacement_passes_its_evidence_on(clients, vendor, upload):
    first = upload(vendor, "proofOfAddress", new_paper(1), "a.pdf").json()["data"]["key"]
    review(clients["mlro"], vendor, first)
    second = upload(vendor, "proofOfAddress", new_paper(2), "b.pdf").json()["data"]["key"]
    third = upload(vendor, "proofOfAddress", new_paper(3), "c.pdf").json()["data"]["key"]
    # the second was never relied on: deleted; the first now names the third as what replaced it
    assert not VendorDocument.objects.filter(key=second).exists()
    assert VendorDocument.objects.get(key=first).superseded_by.key == third
    # and the current paper, never reviewed, may still be deleted: the evidence stays
    assert delete(clients["admin"], vendor, third).status_code == 200
    kept = VendorDocument.objects.get(key=first)
    assert kept.superseded_at is not None and kept.superseded_by is None


def test_the_review_service_refuses_a_superseded_document_whatever_finds_it(clients, vendor, upload, officer):
    old = upload(vendor, "taxClearance", new_paper(1), "a.pdf").json()["data"]["key"]
    review(clients["mlro"], vendor, old)
    upload(vendor, "taxClearance", new_paper(2), "b.pdf")
    kept = VendorDocument.objects.get(key=old)
    with pytest.raises(Conflict, match="kept as evidence"):
        vendor_document_review(document=kept, actor=officer, decision="REREQUESTED", reason_code="OTHER")
    assert VendorDocument.objects.get(key=old).review_decision == "APPROVED"
