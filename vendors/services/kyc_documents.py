"""Writes on a vendor's KYC documents: upload (or replace), delete, and the reviewer's word on one document.

The bytes and the row never disagree for long and never leave debris:

* upload: the file is checked and written first (``backoffice.uploads.upload_store``: all or nothing, a
  storage failure or timeout leaves no object), always under a name no file has yet (a re-upload of the
  same file name gets the storage's random suffix), then the row is written in one transaction with the
  status move, history and audit entry. If that transaction fails the new file is deleted and the old row
  still names its own, untouched file; when it commits, the file it replaced is deleted. Writing over the
  old object instead would leave the old row describing bytes it no longer has whenever the row write
  fails (the PostgreSQL fault run of docs/operations.md).
* delete: the row goes in a transaction, the file once it commits.

The storage write happens outside the database transaction on purpose: a 50 MB upload to S3 takes seconds,
and no row lock (or SQLite's single writer) should be held for that long.
"""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.files.storage import Storage
from django.db import transaction
from django.utils import timezone

from backoffice.errors import Forbidden, ValidationFailed
from backoffice.models import Staff
from backoffice.services import model_clean, plain
from backoffice.uploads import (
    VENDOR_KYC,
    IfExists,
    StoredUpload,
    UnsafeContent,
    safe_filename,
    upload_discard,
    upload_store,
)
from vendors import events
from vendors.choices import REQUIRED_DOCUMENT_KEYS, DocumentKey, ReviewDecision, ReviewReason
from vendors.models import Vendor, VendorDocument, storage_key
from vendors.services.kyc_status import kyc_status_follow, lock_vendor

# "Leave as it is" for the optional dates of a review (None clears them).
UNCHANGED = object()


@dataclass(frozen=True)
class DocumentUpload:
    """What an upload did: the document row, what was stored, the file it replaced, the vendor after it."""

    document: VendorDocument
    stored: StoredUpload
    replaced_key: str | None
    vendor: Vendor


def _require(actor: Staff, capability: str, doing: str) -> None:
    if not actor.has_capability(capability):
        raise Forbidden(f"Your role does not allow {doing}")


def _check_document_key(document_key: str) -> None:
    if document_key not in DocumentKey.values:
        raise ValidationFailed("Invalid document key", details={"document_key": [", ".join(DocumentKey.values)]})


def vendor_document_upload(
    *,
    vendor: Vendor,
    actor: Staff,
    document_key: str,
    file,
    original_filename: str | None = None,
    storage: Storage | None = None,
) -> DocumentUpload:
    """Check and store ``file`` in the vendor's ``document_key`` slot, replacing the file that was there.

    ``file`` is a Django ``UploadedFile`` or any binary file object; its name (or ``original_filename``)
    gives the safe name in the key ``vendors/{vendorId}/kyc/{documentKey}_{safeFilename}``. Raises the
    upload errors of ``backoffice.uploads`` (400 "Invalid file type" also for PDFs with active content or
    encryption, "File size exceeds limit"; 500 "Upload timeout"), nothing stored or changed after any.
    """
    _require(actor, "vendors.kyc.write", "uploading vendor KYC documents")
    _check_document_key(document_key)
    original = original_filename if original_filename is not None else str(getattr(file, "name", "") or "")
    # a name without an extension claims no kind: upload_store refuses it (the name must agree with the bytes)
    name = storage_key(vendor.pk, document_key, safe_filename(original))
    try:
        stored = upload_store(
            file=file,
            name=name,
            policy=VENDOR_KYC,
            storage=storage,
            if_exists=IfExists.RENAME,
            original_filename=original,
            timeout=settings.VENDOR_KYC_UPLOAD_TIMEOUT,
        )
    except UnsafeContent as exc:
        # The contract has one message for a file we do not take ("Invalid file type"); the reason (JavaScript,
        # encryption, ...) and the code UNSAFE_CONTENT still say which check refused it.
        raise UnsafeContent(exc.reason, message="Invalid file type") from None
    # RENAME never writes over an existing object, so stored.name is this upload's own: the old row's file
    # is untouched until the new row has committed, and the new file is ours to delete if the row fails.
    # (Only when the old row named a file that was already gone can the two names be the same.)
    try:
        with transaction.atomic():
            result = _record_upload(
                vendor=vendor, actor=actor, document_key=document_key, stored=stored, original_filename=original
            )
            if result.replaced_key and result.replaced_key != stored.name:
                replaced = result.replaced_key
                transaction.on_commit(lambda: upload_discard(name=replaced, storage=storage))
    except BaseException:
        upload_discard(name=stored.name, storage=storage)
        raise
    return result


def _record_upload(
    *, vendor: Vendor, actor: Staff, document_key: str, stored: StoredUpload, original_filename: str
) -> DocumentUpload:
    locked = lock_vendor(vendor)
    document = VendorDocument.objects.filter(vendor=locked, document_key=document_key).first()
    replaced_key = document.key if document is not None else None
    if document is None:
        document = VendorDocument(vendor=locked, document_key=document_key)
    document.key = stored.name
    document.original_filename = original_filename[:255]
    document.content_type = stored.content_type
    document.size = stored.size
    document.sha256 = stored.sha256
    document.received_sha256 = stored.received_sha256
    document.sanitised = stored.sanitised
    document.pages, document.width, document.height = stored.pages, stored.width, stored.height
    document.uploaded_by = actor
    document.uploaded_at = timezone.now()
    # a new paper: the review, issue and expiry dates of the one it replaces do not describe it
    document.review_decision = document.review_reason_code = document.review_note = ""
    document.reviewed_by = document.reviewed_at = None
    document.issue_date = document.expiry_date = None
    model_clean(document)
    document.save()
    events.document_uploaded(
        actor=actor,
        vendor=locked,
        document_key=document_key,
        stored=stored,
        replaced_key=replaced_key,
        original_filename=original_filename,
    )
    kyc_status_follow(
        vendor=locked,
        actor=actor,
        note=f"{'Replaced' if replaced_key else 'Uploaded'} {document_key}",
        reopen=document_key in REQUIRED_DOCUMENT_KEYS,
    )
    return DocumentUpload(document=document, stored=stored, replaced_key=replaced_key, vendor=locked)


@transaction.atomic
def vendor_document_delete(*, document: VendorDocument, actor: Staff, storage: Storage | None = None) -> Vendor:
    """Delete a vendor's document: the row now, the file once the transaction commits. Returns the vendor."""
    _require(actor, "vendors.kyc.write", "deleting vendor KYC documents")
    locked = lock_vendor(document.vendor)
    document = VendorDocument.objects.select_for_update().get(pk=document.pk)
    key = document.key
    document.delete()
    events.document_deleted(actor=actor, vendor=locked, document=document, key=key)
    kyc_status_follow(vendor=locked, actor=actor, note=f"Deleted {document.document_key}", reopen=False)
    transaction.on_commit(lambda: upload_discard(name=key, storage=storage))
    return locked


@transaction.atomic
def vendor_document_review(
    *,
    document: VendorDocument,
    actor: Staff,
    decision: str,
    reason_code: str = "",
    note: str = "",
    expiry_date: dt.date | None = UNCHANGED,
    issue_date: dt.date | None = UNCHANGED,
) -> VendorDocument:
    """Approve one document or ask for it again (with a reason code), with the dates the reviewer read on it.

    Dates left out stay as they were; None clears them. A document asked for again, or one whose expiry date
    has passed, counts as missing, and the vendor's status follows.
    """
    _require(actor, "vendors.kyc.write", "reviewing vendor KYC documents")
    if decision not in ReviewDecision.values:
        raise ValidationFailed("Invalid decision", details={"decision": [", ".join(ReviewDecision.values)]})
    reason_code = (reason_code or "").strip()
    if decision == ReviewDecision.REREQUESTED and not reason_code:
        raise ValidationFailed(
            "A reason code is required to ask for a document again", details={"reason_code": ["Required."]}
        )
    if decision == ReviewDecision.APPROVED and reason_code:
        raise ValidationFailed(
            "A reason code is only for a document asked for again",
            details={"reason_code": ["Only with REREQUESTED."]},
        )
    if reason_code and reason_code not in ReviewReason.values:
        raise ValidationFailed("Invalid reason code", details={"reason_code": [", ".join(ReviewReason.values)]})
    locked = lock_vendor(document.vendor)
    document = VendorDocument.objects.select_for_update().get(pk=document.pk)
    before = {
        "decision": document.review_decision,
        "expiry_date": plain(document.expiry_date),
        "issue_date": plain(document.issue_date),
    }
    document.review_decision = decision
    document.review_reason_code = reason_code
    document.review_note = (note or "").strip()
    document.reviewed_by = actor
    document.reviewed_at = timezone.now()
    if expiry_date is not UNCHANGED:
        document.expiry_date = expiry_date
    if issue_date is not UNCHANGED:
        document.issue_date = issue_date
    model_clean(document)
    document.save()
    events.document_reviewed(actor=actor, vendor=locked, document=document, before=before)
    words = "approved" if decision == ReviewDecision.APPROVED else f"asked again ({reason_code})"
    kyc_status_follow(vendor=locked, actor=actor, note=f"{document.document_key} {words}", reopen=False)
    document.vendor = locked
    return document
