"""The audited actions of the sanctions lists and of screening, one typed function each.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
"""

from enum import StrEnum

from backoffice.models import AuditLog
from backoffice.services import Actor, Move, audit_record
from compliance.sanctions.models import ListVersion
from compliance.sanctions.models.match import SanctionsMatch


class Action(StrEnum):
    IMPORT = "sanctions_list.import"
    MATCH_REVIEW = "sanctions_match.review"


LIST_OBJECT = "sanctions_list"
MATCH_OBJECT = "sanctions_match"


def list_imported(*, actor: Actor, version: ListVersion) -> AuditLog:
    """A new version of a list was imported: the files read, their hash and the delta."""
    return audit_record(
        actor=actor,
        action=Action.IMPORT,
        object_type=LIST_OBJECT,
        object_id=version.sanctions_list_id,
        changes={
            "list": version.sanctions_list.code,
            "version": version.number,
            "sha256": version.sha256,
            "files": version.source_files,
            "entries": version.entries,
            "added": version.added,
            "removed": version.removed,
            "changed": version.changed,
            "unchanged": version.unchanged,
            "allowed_shrink": version.allowed_shrink,
        },
    )


def match_reviewed(move: Move[SanctionsMatch]) -> AuditLog:
    """An officer confirmed or dismissed a match (``fsm_move``'s event), with the note."""
    match = move.instance
    return audit_record(
        actor=move.actor,
        action=Action.MATCH_REVIEW,
        object_type=MATCH_OBJECT,
        object_id=match.pk,
        changes={
            "status": {"from": move.source, "to": move.target},
            "note": move.note,
            "party": match.party,
            "user_id": str(match.user_id) if match.user_id else None,
            "counterparty_name": match.counterparty_name,
            "entry_id": str(match.entry_id),
            "content_hash": match.content_hash,
        },
    )
