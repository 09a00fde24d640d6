"""Vendor KYC's audited actions, one typed function each.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
Every entry is about the vendor (``object_type`` "vendor", the vendor's id), the document named in ``changes``.
"""

from enum import StrEnum

from backoffice.models import AuditLog
from backoffice.services import Actor, Move, audit_record, plain
from backoffice.uploads import StoredUpload
from vendors.models import Vendor, VendorDocument


class Action(StrEnum):
    KYC_STATUS = "vendor.kyc.status"
    DOCUMENT_UPLOAD = "vendor.kyc.document.upload"
    DOCUMENT_DELETE = "vendor.kyc.document.delete"
    DOCUMENT_REVIEW = "vendor.kyc.document.review"


VENDOR = "vendor"


def kyc_status_moved(move: Move[Vendor]) -> AuditLog:
    """The vendor's KYC status moved (``fsm_move``'s event): from, to and why."""
    return audit_record(
        actor=move.actor,
        action=Action.KYC_STATUS,
        object_type=VENDOR,
        object_id=move.instance.pk,
        changes=move.payload(),
    )


def document_uploaded(
    *,
    actor: Actor,
    vendor: Vendor,
    document_key: str,
    stored: StoredUpload,
    replaced_key: str | None,
    original_filename: str,
    superseded: bool = False,
) -> AuditLog:
    """A file went into the vendor's ``document_key`` slot (``replaced_key``: the file it replaced, if any;
    ``superseded``: that file is kept as evidence rather than deleted)."""
    return audit_record(
        actor=actor,
        action=Action.DOCUMENT_UPLOAD,
        object_type=VENDOR,
        object_id=vendor.pk,
        changes={
            "document_key": document_key,
            "key": stored.name,
            "replaced_key": replaced_key,
            "superseded": superseded,
            "original_filename": original_filename,
            "size": stored.size,
            "sha256": stored.sha256,
            "received_sha256": stored.received_sha256,
            "sanitised": stored.sanitised,
        },
    )


def document_deleted(*, actor: Actor, vendor: Vendor, document: VendorDocument, key: str) -> AuditLog:
    """A document was deleted (``key``: where its file was; ``superseded_at``: set when it was evidence kept
    after a replacement, purged once its retention period ended)."""
    return audit_record(
        actor=actor,
        action=Action.DOCUMENT_DELETE,
        object_type=VENDOR,
        object_id=vendor.pk,
        changes={
            "document_key": document.document_key,
            "key": key,
            "sha256": document.sha256,
            "superseded_at": plain(document.superseded_at),
        },
    )


def document_reviewed(*, actor: Actor, vendor: Vendor, document: VendorDocument, before: dict) -> AuditLog:
    """A reviewer approved a document or asked for it again; ``before``: its decision and dates until now."""
    return audit_record(
        actor=actor,
        action=Action.DOCUMENT_REVIEW,
        object_type=VENDOR,
        object_id=vendor.pk,
        changes={
            "document_key": document.document_key,
            "key": document.key,
            "before": before,
            "decision": document.review_decision,
            "reason_code": document.review_reason_code,
            "note": document.review_note,
            "expiry_date": plain(document.expiry_date),
            "issue_date": plain(document.issue_date),
        },
    )
