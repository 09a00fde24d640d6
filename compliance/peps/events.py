"""The audited actions of PEP review and screening, one typed function each.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
"""

from enum import StrEnum

from backoffice.models import AuditLog
from backoffice.services import Actor, Move, audit_record
from compliance.peps.models.pep import NameScreening, PEPMatch


class Action(StrEnum):
    MATCH_REVIEW = "pep_match.review"
    SCREEN_NAME = "pep.screen_name"


def pep_match_reviewed(move: Move[PEPMatch]) -> AuditLog:
    """An officer confirmed or dismissed a match (``fsm_move`` calls it), with the note and what it decided."""
    match = move.instance
    return audit_record(
        actor=move.actor,
        action=Action.MATCH_REVIEW,
        object_type="pep_match",
        object_id=match.pk,
        changes={
            "from": move.source,
            "to": move.target,
            "note": move.note,
            "user_id": str(match.user_id),
            "pep": match.pep_name,
        },
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
