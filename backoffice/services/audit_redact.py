"""Erasure and integrity together: blank what the audit log holds about a purged record, on the record."""

from django.db import transaction

from backoffice import events
from backoffice.audit_chain import audit_redact, link_pending_now
from backoffice.models import AuditLog
from backoffice.toolkit import Actor


def audit_redact_about(*, actor: Actor, object_type: str, object_id, keep: tuple[str, ...] = ()) -> list[int]:
    """Blank the changes of every entry about (``object_type``, ``object_id``) but the keys in ``keep``, each
    keeping its digest, and record one ``audit.redact`` entry naming them; returns their sequences."""
    with transaction.atomic():
        # entries this transaction wrote about the record (on PostgreSQL linked only at its commit) get their place
        # now, so the redaction can name them
        link_pending_now()
        entries = AuditLog.objects.filter(object_type=object_type, object_id=str(object_id), redacted_at__isnull=True)
        sequences = audit_redact(
            entries=entries.only("pk", "sequence", "changes", "redacted_at").order_by("sequence"), keep=keep
        )
        if sequences:
            events.audit_redacted(actor=actor, object_type=object_type, object_id=object_id, sequences=sequences)
    return sequences
