"""The append-only audit log: every staff write records one entry inside its own transaction.

Services do not call ``audit_record`` with an action string of their own: each audited action is a typed
function in its app's ``events.py`` (``kyc.events.user_updated``...), which calls ``audit_record`` with the
action's one stored name. Writers that record many entries at once (a screening run, an import) wrap the
events in ``audit_batch()`` and the entries go to the database in a few INSERTs.
"""

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

from django.utils import timezone

from backoffice.audit_chain import chain_append
from backoffice.models import AuditLog, Staff
from backoffice.ops.request_context import current_ip

# The entries collected by the innermost open ``audit_batch``; None outside one.
_batch: contextvars.ContextVar[list[AuditLog] | None] = contextvars.ContextVar("audit_batch", default=None)


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
        # str(): the events pass StrEnum members; the row and the instance hold the plain stored name
        action=str(action),
        object_type=str(object_type),
        object_id=str(object_id or ""),
        changes=changes or {},
        ip_address=ip_address or current_ip(),
        # the time is part of the entry's digest, so it is set here, not by the database
        created_at=timezone.now(),
    )


def audit_record(**fields) -> AuditLog:
    """Append one entry to the audit log (the arguments of ``audit_entry``). Every staff write calls this
    inside its own transaction, so the entry exists exactly when the write does.

    Inside ``audit_batch()`` the entry is kept for the batch's INSERT instead (and returned unsaved).
    """
    entry = audit_entry(**fields)
    batch = _batch.get()
    if batch is not None:
        batch.append(entry)
    else:
        chain_append([entry])
    return entry


def audit_record_many(entries: list[AuditLog]) -> None:
    """Append many entries in one statement (entries made by ``audit_entry``), chained in their order."""
    chain_append(entries)


@contextlib.contextmanager
def audit_batch() -> Iterator[list[AuditLog]]:
    """Collect the entries recorded inside the block and write them together when it ends without an error.

    For writers that record one event per row of a large set (a screening flagging thousands of users): the
    events are the same typed functions, the entries one ``bulk_create``. A batch inside a batch adds to the
    outer one. Nothing is written when the block raises (its transaction is being undone anyway).
    """
    outer = _batch.get()
    if outer is not None:
        yield outer
        return
    entries: list[AuditLog] = []
    token = _batch.set(entries)
    try:
        yield entries
    finally:
        _batch.reset(token)
    # reached only when the block ended normally
    if entries:
        audit_record_many(entries)
