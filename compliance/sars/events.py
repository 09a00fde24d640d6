"""The audited actions of suspicious activity reports, one typed function each: filed, edited, moved, returned,
exported, answered by the FIU, corrected.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
Every entry is about the report (``object_type`` "sar", the report's id) and names its ``sar_id``.
"""

from enum import StrEnum
from typing import Any

from backoffice.models import AuditLog
from backoffice.services import Actor, Move, audit_record
from compliance.sars.models.sar import SAR


class Action(StrEnum):
    CREATE = "sar.create"
    UPDATE = "sar.update"
    TRANSITION = "sar.transition"
    RETURN = "sar.return"
    EXPORT = "sar.export"
    FIU_REJECTED = "sar.fiu_rejected"
    CORRECT = "sar.correct"


OBJECT_TYPE = "sar"


def _record(*, actor: Actor, action: Action, sar: SAR, changes: dict[str, Any]) -> AuditLog:
    return audit_record(
        actor=actor, action=action, object_type=OBJECT_TYPE, object_id=sar.pk, changes={"sar_id": sar.sar_id, **changes}
    )


def sar_created(*, actor: Actor, sar: SAR, changes: dict[str, Any]) -> AuditLog:
    """A report was filed in DRAFT: its subject, type, amount and the evidence it cites (``changes``)."""
    return _record(actor=actor, action=Action.CREATE, sar=sar, changes=changes)


def sar_updated(*, actor: Actor, sar: SAR, changes: dict[str, Any]) -> AuditLog:
    """A draft was edited: the fields that changed, the narrative's new version, the evidence added and removed."""
    return _record(actor=actor, action=Action.UPDATE, sar=sar, changes=changes)


def sar_moved(move: Move[SAR], *, filed_sha256: str | None = None) -> AuditLog:
    """A report moved through the workflow (``fsm_move``'s event); ``filed_sha256``: the filed goAML copy's hash."""
    changes: dict[str, Any] = move.payload()
    if filed_sha256 is not None:
        changes["filed_sha256"] = filed_sha256
    return _record(actor=move.actor, action=Action.TRANSITION, sar=move.instance, changes=changes)


def sar_returned(move: Move[SAR]) -> AuditLog:
    """A report was sent back to DRAFT (``fsm_move``'s event), with the reason (the move's note)."""
    return _record(
        actor=move.actor,
        action=Action.RETURN,
        sar=move.instance,
        changes=move.payload(note_as="reason"),
    )


def sar_exported(*, actor: Actor, sar: SAR, fmt: str, via: str, filed_sha256: str | None) -> AuditLog:
    """Someone took a copy of a report; ``filed_sha256``: the hash of the filed copy they got, if it is one."""
    changes: dict[str, Any] = {"format": fmt, "via": via}
    if filed_sha256 is not None:
        changes["as_filed"] = True
        changes["sha256"] = filed_sha256
    return _record(actor=actor, action=Action.EXPORT, sar=sar, changes=changes)


def sar_fiu_rejected(move: Move[SAR], *, reason: str) -> AuditLog:
    """The FIU rejected a filed report (``fsm_move``'s event): the unit's reason and reference."""
    sar = move.instance
    return _record(
        actor=move.actor,
        action=Action.FIU_REJECTED,
        sar=sar,
        changes={"reason": reason, "fiu_reference": sar.fiu_reference},
    )


def sar_corrected(*, actor: Actor, correction: SAR, rejected: SAR) -> AuditLog:
    """A correction (a new DRAFT) was filed for a report the FIU rejected."""
    return _record(actor=actor, action=Action.CORRECT, sar=correction, changes={"corrects": rejected.sar_id})
