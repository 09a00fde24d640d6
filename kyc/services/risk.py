"""Writes on a user's risk: the score (0..100), the rating it implies, and the potential-PEP flag.

Higher apps change a user's risk only here (compliance's PEP screening: a match raises the score and flags the
user, a dismissed match takes its points back), so the cap, the rating and the audit entry hold whoever asks.
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from backoffice.services import Actor, audit_batch
from kyc import events
from kyc.choices import RiskRating
from kyc.models import PlatformUser

MAX_SCORE = 100
# A score from here up is rated MEDIUM, and from HIGH_FROM up HIGH (the demo users follow the same bands).
MEDIUM_FROM = 40
HIGH_FROM = 70
_RANK = {RiskRating.LOW: 0, RiskRating.MEDIUM: 1, RiskRating.HIGH: 2}
CHUNK = 500


def risk_rating_for(score: int) -> str:
    """The rating a score implies: LOW below 40, MEDIUM from 40, HIGH from 70."""
    if score >= HIGH_FROM:
        return RiskRating.HIGH
    if score >= MEDIUM_FROM:
        return RiskRating.MEDIUM
    return RiskRating.LOW


@dataclass(frozen=True)
class RiskFlag:
    """A change asked for: ``points`` added to the score (negative to take points back), and the PEP flag
    set to ``potential_pep`` (None leaves it as it is)."""

    user_id: object
    points: int = 0
    potential_pep: bool | None = None


@dataclass(frozen=True)
class RiskChange:
    """What one flag did: ``applied`` is the points really added after the 0..100 cap."""

    user_id: object
    applied: int
    score: int
    rating: str
    potential_pep: bool
    changed: bool


@transaction.atomic
def user_risk_flag_many(*, flags: list[RiskFlag], reason: str, actor: Actor = None) -> list[RiskChange]:
    """Apply the flags in order (several may name one user); one RiskChange per flag, in the same order.

    Rows are locked in primary-key order, so two runs flagging overlapping users cannot deadlock. A raise
    never lowers the rating (a HIGH user stays HIGH); taking points back rates the user from the new score.
    One audit entry per user whose risk changed, with the reason.
    """
    ids = list(dict.fromkeys(flag.user_id for flag in flags))
    users: dict = {}
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        locked = PlatformUser.objects.select_for_update().filter(pk__in=chunk).order_by("pk")
        users.update({u.pk: u for u in locked.only("pk", "current_risk_score", "risk_rating", "is_potential_pep")})
    before = {pk: (u.current_risk_score, u.risk_rating, u.is_potential_pep) for pk, u in users.items()}
    changes = []
    for flag in flags:
        user = users.get(flag.user_id)
        if user is None:  # purged meanwhile: nothing to flag
            changes.append(RiskChange(flag.user_id, 0, 0, RiskRating.LOW, False, False))
            continue
        score = max(0, min(MAX_SCORE, user.current_risk_score + flag.points))
        applied = score - user.current_risk_score
        rating = risk_rating_for(score)
        if applied >= 0 and _RANK[rating] < _RANK.get(user.risk_rating, 0):
            rating = user.risk_rating
        was = (user.current_risk_score, user.risk_rating, user.is_potential_pep)
        user.current_risk_score, user.risk_rating = score, rating
        if flag.potential_pep is not None:
            user.is_potential_pep = flag.potential_pep
        now = (user.current_risk_score, user.risk_rating, user.is_potential_pep)
        changes.append(RiskChange(user.pk, applied, score, rating, user.is_potential_pep, now != was))
    touched = [u for pk, u in users.items() if (u.current_risk_score, u.risk_rating, u.is_potential_pep) != before[pk]]
    moment = timezone.now()
    # one UPDATE per distinct outcome (at most a few hundred: 101 scores, 3 ratings, 2 flags) instead of a
    # CASE per row, which a screening flagging thousands of users at once would spend seconds compiling
    outcomes: dict[tuple, list] = {}
    for user in touched:
        outcomes.setdefault((user.current_risk_score, user.risk_rating, user.is_potential_pep), []).append(user.pk)
    for (score, rating, flagged), pks in outcomes.items():
        for start in range(0, len(pks), CHUNK):
            PlatformUser.objects.filter(pk__in=pks[start : start + CHUNK]).update(
                current_risk_score=score, risk_rating=rating, is_potential_pep=flagged, updated_at=moment
            )
    with audit_batch():
        for user in touched:
            after = (user.current_risk_score, user.risk_rating, user.is_potential_pep)
            events.user_risk_changed(actor=actor, user_id=user.pk, before=before[user.pk], after=after, reason=reason)
    return changes


def user_risk_flag(
    *, user_id, points: int = 0, potential_pep: bool | None = None, reason: str, actor: Actor = None
) -> RiskChange:
    """One user's risk change (see ``user_risk_flag_many``)."""
    return user_risk_flag_many(flags=[RiskFlag(user_id, points, potential_pep)], reason=reason, actor=actor)[0]
