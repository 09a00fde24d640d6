"""Screening a name by hand against the PEP list: the answer, and the record of who asked (evidence)."""

from dataclasses import dataclass

from django.db import transaction

from backoffice.services import Actor
from compliance.peps import events
from compliance.peps.choices import ScreeningChannel
from compliance.peps.models.pep import NameScreening
from compliance.peps.selectors.pep import ScreenHit, match_threshold, pep_screen
from names import MATCHER_VERSION


@dataclass(frozen=True)
class NameScreened:
    hits: list[ScreenHit]
    screening: NameScreening


@transaction.atomic
def pep_name_screen(
    *,
    actor: Actor,
    channel: ScreeningChannel,
    name: str,
    date_of_birth: str = "",
    country: str | None = "",
    aliases: list[str] | tuple[str, ...] = (),
) -> NameScreened:
    """The active PEPs ``name`` matches (best first), recorded with who asked, through which door and the answer.

    The record keeps the best ``NameScreening.HITS_KEPT`` hits as they were (the PEP may change later) and the
    count of all; one audit entry. Nothing else is written: no match, no alert.
    """
    hits = pep_screen(name=name, date_of_birth=date_of_birth or None, country=country or None, aliases=aliases)
    screening = NameScreening.objects.create(
        actor=actor,
        actor_email=getattr(actor, "email", "") or "",
        channel=channel,
        name=name,
        date_of_birth=date_of_birth or "",
        country=country or "",
        aliases=list(aliases or ()),
        matcher_version=MATCHER_VERSION,
        threshold=match_threshold(),
        hit_count=len(hits),
        hits=[
            {
                "pep_id": str(hit.pep.pk),
                "name": hit.pep.name,
                "category": hit.pep.category,
                "score": round(hit.match.score, 4),
            }
            for hit in hits[: NameScreening.HITS_KEPT]
        ],
    )
    events.name_screened(actor=actor, screening=screening)
    return NameScreened(hits=hits, screening=screening)
