"""The audited actions of case work, one typed function each: a comment, an evidence file.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
Each entry is about the case the comment or file belongs to (``object_type`` "alert" or "sar", its id).
"""

from enum import StrEnum

from backoffice.models import AuditLog
from backoffice.services import Actor, audit_record
from compliance.casework.models.casework import CaseAttachment, CaseComment


class Action(StrEnum):
    COMMENT = "case.comment"
    ATTACHMENT = "case.attachment"


def _case(record: CaseComment | CaseAttachment) -> tuple[str, object]:
    return ("alert", record.alert_id) if record.alert_id is not None else ("sar", record.sar_id)


def comment_added(*, actor: Actor, comment: CaseComment) -> AuditLog:
    """A comment joined a case's thread (its length, not its text: the thread keeps that)."""
    kind, case_id = _case(comment)
    return audit_record(
        actor=actor,
        action=Action.COMMENT,
        object_type=kind,
        object_id=case_id,
        changes={"comment_id": str(comment.pk), "for_report": comment.for_report, "length": len(comment.text)},
    )


def attachment_added(*, actor: Actor, attachment: CaseAttachment) -> AuditLog:
    """An evidence file was stored on a case: its name as people see it, size and sha256."""
    kind, case_id = _case(attachment)
    return audit_record(
        actor=actor,
        action=Action.ATTACHMENT,
        object_type=kind,
        object_id=case_id,
        changes={
            "attachment_id": str(attachment.pk),
            "filename": attachment.filename,
            "size": attachment.size,
            "sha256": attachment.sha256,
        },
    )
