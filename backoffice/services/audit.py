"""The append-only audit log: every staff write records one entry inside its own transaction."""

from typing import Any

from backoffice.models import AuditLog, Staff
from backoffice.request_context import current_ip


def audit_entry(
    *,
    actor: Staff | None,
    action: str,
    object_type: str,
    object_id: Any = "",
    changes: dict | None = None,
    ip_address: str | None = None,
) -> AuditLog:
    """An unsaved entry; ``audit_record`` saves one, bulk writers (the AML engine) save many at once."""
    return AuditLog(
        actor=actor if isinstance(actor, Staff) else None,
        actor_email=getattr(actor, "email", "") or "",
        action=action,
        object_type=object_type,
        object_id=str(object_id or ""),
        changes=changes or {},
        ip_address=ip_address or current_ip(),
    )


def audit_record(**fields) -> AuditLog:
    """Append one entry to the audit log (the arguments of ``audit_entry``). Every staff write calls this
    inside its own transaction, so the entry exists exactly when the write does."""
    entry = audit_entry(**fields)
    entry.save()
    return entry


def audit_record_many(entries: list[AuditLog]) -> None:
    """Append many entries in one statement (entries made by ``audit_entry``)."""
    AuditLog.objects.bulk_create(entries, batch_size=500)
