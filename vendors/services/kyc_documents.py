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

Evidence kept: a document a decision relied on (``VendorDocument.relied_on``) is never deleted while current
(409 RETENTION_HOLD: replace it instead), and a replacement supersedes it rather than deleting it: the old row
keeps its file, review and dates, names its successor, and stays until ``VENDOR_KYC_RETENTION_DAYS`` after it was
replaced. After that the same delete purges it (row now, file after commit). A document no decision relied on is
replaced and deleted as the contract says.

The storage write happens outside the database transaction on purpose: a 50 MB upload to S3 takes seconds,
and no row lock (or SQLite's single writer) should be held for that long.
"""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.files.storage import Storage
from django.db import transaction
from django.utils import timezone

from backoffice.errors import Conflict, Forbidden, ValidationFailed
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
from vendors.errors import DocumentRetained
from vendors.models import Vendor, VendorDocument, storage_key, today
from vendors.services.kyc_status import kyc_status_follow, lock_vendor

# What the row copies from the stored upload, under the same names.
STORED_FIELDS = ("content_type", "size", "sha256", "received_sha256", "sanitised", "pages", "width", "height")
# "Leave as it is" for the optional dates of a review (None clears them).
UNCHANGED = object()


@dataclass(frozen=True)
class DocumentUpload:
    """What an upload did: the document row, what was stored, the file it replaced (kept as evidence when
    ``superseded``, deleted otherwise), the vendor after it."""

    document: VendorDocument
    stored: StoredUpload
    replaced_key: str | None
    vendor: Vendor
    superseded: bool = False


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
            if result.replaced_key and result.replaced_key != stored.name and not result.superseded:
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
    now = timezone.now()
    # a new paper is a new row: the review, issue and expiry dates of the one it replaces do not describe it
    described = {field: getattr(stored, field) for field in STORED_FIELDS}
    document = VendorDocument(
        vendor=locked, document_key=document_key, key=stored.name, original_filename=original_filename[:255],
        uploaded_by=actor, uploaded_at=now, **described,
    )  # fmt: skip
    old = VendorDocument.objects.current().select_for_update().filter(vendor=locked, document_key=document_key).first()
    replaced_key = old.key if old is not None else None
    superseded = old is not None and old.relied_on(locked) is not None
    if superseded:
        if old.key == stored.name:
            # RENAME gives the old key back only when its file is gone from the storage: evidence was lost
            raise Conflict(
                "The stored file of the document this would replace is missing; it was kept as evidence, "
                "so the loss needs looking into before it is replaced",
                details={"file": [old.key]},
            )
        old.superseded_at = now
        old.superseded_by = document  # the foreign key is checked at commit, once the new row is in
        old.save(update_fields=["superseded_at", "superseded_by"])
    predecessors = []
    if old is not None and not superseded:
        # nothing relied on it: replaced as the contract says, its file goes after commit; the evidence it had
        # superseded names the new document as its successor instead
        predecessors = list(VendorDocument.objects.filter(superseded_by=old).values_list("pk", flat=True))
        old.delete()
    model_clean(document)
    document.save(force_insert=True)
    if predecessors:
        VendorDocument.objects.filter(pk__in=predecessors).update(superseded_by=document)
    events.document_uploaded(
        actor=actor,
        vendor=locked,
        document_key=document_key,
        stored=stored,
        replaced_key=replaced_key,
        original_filename=original_filename,
        superseded=superseded,
    )
    kyc_status_follow(
        vendor=locked,
        actor=actor,
        note=f"{'Replaced' if replaced_key else 'Uploaded'} {document_key}",
        reopen=document_key in REQUIRED_DOCUMENT_KEYS,
    )
    return DocumentUpload(
        document=document, stored=stored, replaced_key=replaced_key, vendor=locked, superseded=superseded
    )


def retention_refusal(document: VendorDocument, vendor: Vendor, on: dt.date) -> str | None:
    """Why ``document`` may not be deleted on ``on`` (a decision relied on it and its retention runs), or None."""
    until = document.retained_until()
    if until is not None:
        if on <= until:
            return (
                f"Kept as evidence until {until:%Y-%m-%d}: it was replaced on {document.superseded_at:%Y-%m-%d} "
                f"after a decision relied on it; it can be deleted after that date"
            )
        return None
    relied_on = document.relied_on(vendor)
    if relied_on:
        return (
            f"A KYC decision relied on this document ({relied_on}): it cannot be deleted; upload a replacement, "
            f"and it is kept as evidence for {settings.VENDOR_KYC_RETENTION_DAYS} days after that"
        )
    return None


@transaction.atomic
def vendor_document_delete(*, document: VendorDocument, actor: Staff, storage: Storage | None = None) -> Vendor:
    """Delete a vendor's document: the row now, the file once the transaction commits. Returns the vendor.

    A document a decision relied on is refused with 409 RETENTION_HOLD while it is current (replace it
    instead) and, once superseded, until its retention period has ended; after that this is its purge.
    """
    _require(actor, "vendors.kyc.write", "deleting vendor KYC documents")
    locked = lock_vendor(document.vendor)
    document = VendorDocument.objects.select_for_update().get(pk=document.pk)
    refusal = retention_refusal(document, locked, today())
    if refusal:
        raise DocumentRetained(details={"key": [refusal]})
    key = document.key
    current = document.superseded_at is None
    document.delete()
    events.document_deleted(actor=actor, vendor=locked, document=document, key=key)
    if current:
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
    if document.superseded_at is not None:
        raise Conflict("This document was replaced and is kept as evidence; review the one in its slot now")
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
