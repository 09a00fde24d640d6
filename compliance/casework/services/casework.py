"""Writes of case work: a comment in an alert's or a SAR's thread, an evidence file on either.

Both are append-only and audited (``case.comment``, ``case.attachment``).
Files go through the shared upload checks (``backoffice.uploads``, policy
ATTACHMENT: PDF, JPEG or PNG whose bytes agree with the name, at most 20 MB,
stored exactly as received) to the storage layer; the record is written only
after the file is stored, and a failed record removes the file again, so
neither exists without the other.
"""

import uuid

from django.db import transaction
from django.db.models import Model

from backoffice.errors import Conflict, Forbidden, ValidationFailed
from backoffice.models import Staff
from backoffice.uploads import ATTACHMENT, file_extension, safe_filename, upload_discard, upload_store
from compliance.casework import events
from compliance.casework.models.casework import CaseAttachment, CaseComment

__all__ = ["attachment_add", "comment_add", "COMMENT_MAX"]
# goAML carries a note for the report in one info_text of at most 4,000 characters
COMMENT_MAX = 4000

# The capability that lets a staff member add to a case, by the kind of case (backoffice.roles).
WRITE_CAPABILITY = {"alert": "alerts.manage", "sar": "sars.file"}


def _parent(alert: Model | None, sar: Model | None) -> tuple[str, Model]:
    if (alert is None) == (sar is None):
        raise ValueError("a comment or attachment belongs to exactly one alert or one SAR")
    return ("alert", alert) if alert is not None else ("sar", sar)


def _allow(actor: Staff, kind: str) -> None:
    if not actor.has_capability(WRITE_CAPABILITY[kind]):
        raise Forbidden(f"Your role does not allow adding to an {kind}'s case work")


@transaction.atomic
def comment_add(
    *, actor: Staff, text: str, for_report: bool = False, alert: Model | None = None, sar: Model | None = None
) -> CaseComment:
    """Append a comment to the thread of ``alert`` or ``sar``; ``for_report`` lets it reach the FIU's report.

    A note for the report once the report was filed is refused (409, the case says why: its
    ``report_notes_closed``): it would be kept and shown as for the FIU, and never reach it.
    """
    kind, parent = _parent(alert, sar)
    _allow(actor, kind)
    closed = getattr(parent, "report_notes_closed", "") if for_report else ""
    if closed:
        raise Conflict(closed, code="REPORT_ALREADY_FILED")
    text = (text or "").strip()
    if not text:
        raise ValidationFailed("A comment needs some text", details={"text": ["Required."]})
    if len(text) > COMMENT_MAX:
        raise ValidationFailed("Validation error", details={"text": [f"At most {COMMENT_MAX} characters."]})
    comment = CaseComment.objects.create(alert=alert, sar=sar, author=actor, text=text, for_report=bool(for_report))
    events.comment_added(actor=actor, comment=comment)
    return comment


def attachment_add(*, actor: Staff, file, alert: Model | None = None, sar: Model | None = None) -> CaseAttachment:
    """Check ``file`` (an uploaded file) and store it as evidence on ``alert`` or ``sar``.

    400 ``INVALID_FILE_TYPE``/``FILE_TOO_LARGE``/``UNSAFE_CONTENT`` for a file
    the checks refuse (nothing is stored then). The storage key is ours
    (``compliance/evidence/<kind>/<id>/<random>.<ext>``); the name people see
    is the original reduced to safe characters.
    """
    kind, parent = _parent(alert, sar)
    _allow(actor, kind)
    if file is None:
        raise ValidationFailed("A file is required", details={"file": ["Required."]})
    original = str(getattr(file, "name", "") or "")
    extension = file_extension(safe_filename(original))
    stored = upload_store(
        file=file,
        name=f"compliance/evidence/{kind}/{parent.pk}/{uuid.uuid4().hex}{extension}",
        policy=ATTACHMENT,
        original_filename=original,
    )
    try:
        with transaction.atomic():
            attachment = CaseAttachment.objects.create(
                alert=alert,
                sar=sar,
                storage_name=stored.name,
                filename=stored.safe_filename,
                original_filename=original[:255],
                content_type=stored.content_type,
                size=stored.size,
                sha256=stored.sha256,
                uploaded_by=actor,
            )
            events.attachment_added(actor=actor, attachment=attachment)
    except Exception:
        upload_discard(name=stored.name)
        raise
    return attachment
