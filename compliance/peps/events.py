"""The audited actions of the PEP list, PEP review and screening, one typed function each.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
"""

import uuid
from enum import StrEnum
from typing import Any

from backoffice.models import AuditLog
from backoffice.services import Actor, Diff, Move, audit_record
from compliance.peps.models.pep import PEP, NameScreening, PEPMatch


class Action(StrEnum):
    MATCH_REVIEW = "pep_match.review"
    SCREEN_NAME = "pep.screen_name"
    CREATE = "pep.create"
    UPDATE = "pep.update"
    DELETE = "pep.delete"
    IMPORT_CREATE = "pep.import_create"
    IMPORT_UPDATE = "pep.import_update"


PEP_OBJECT = "pep"


def pep_created(*, actor: Actor, pep: PEP, snapshot: dict[str, Any], imported: bool = False) -> AuditLog:
    """A PEP joined the list (by hand, a bulk upload, or a file import: ``imported``), as ``snapshot`` shows it."""
    return audit_record(
        actor=actor,
        action=Action.IMPORT_CREATE if imported else Action.CREATE,
        object_type=PEP_OBJECT,
        object_id=pep.pk,
        changes=snapshot,
    )


def pep_updated(*, actor: Actor, pep: PEP, fields: Diff, imported: bool = False) -> AuditLog:
    """A PEP changed as its next version (``fields``: the toolkit's diff), by hand or by a file import."""
    return audit_record(
        actor=actor,
        action=Action.IMPORT_UPDATE if imported else Action.UPDATE,
        object_type=PEP_OBJECT,
        object_id=pep.pk,
        changes={"version": pep.version, "fields": fields},
    )


def pep_deleted(*, actor: Actor, pep_id: uuid.UUID | int, snapshot: dict[str, Any]) -> AuditLog:
    """A PEP left the list for good; ``snapshot`` is what it was."""
    return audit_record(actor=actor, action=Action.DELETE, object_type=PEP_OBJECT, object_id=pep_id, changes=snapshot)


def pep_match_reviewed(move: Move[PEPMatch]) -> AuditLog:
    """An officer confirmed or dismissed a match (``fsm_move`` calls it), with the note and what it decided."""
    match = move.instance
    return audit_record(
        actor=move.actor,
        action=Action.MATCH_REVIEW,
        object_type="pep_match",
        object_id=match.pk,
        changes=move.payload(user_id=str(match.user_id), pep=match.pep_name),
    )


def name_screened(*, actor: Actor, screening: NameScreening) -> AuditLog:
    """Someone screened a name against the PEP list by hand: what they asked and how many PEPs answered."""
    return audit_record(
        actor=actor,
        action=Action.SCREEN_NAME,
        object_type="name_screening",
        object_id=screening.pk,
        changes={
            "channel": screening.channel,
            "name": screening.name,
            "date_of_birth": screening.date_of_birth,
            "country": screening.country,
            "hit_count": screening.hit_count,
            "best": screening.hits[0] if screening.hits else None,
        },
    )
