"""Writes on a user's risk: the score (0..100), the rating it implies, and the potential-PEP flag.

The stored score is what the facts in the records indicate, computed by the one risk function (the
``kyc.hooks.risk_scores`` hook, answered by ``compliance.risk``): every service that changes a fact that
feeds it (a PEP match or its review, a SAR, an alert raised or closed, an identity check's outcome) calls
``user_risk_refresh_many`` in its own transaction, so the stored score and rating never drift from the
facts, and each change is audited with its reason (the customer's timeline shows it).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from backoffice.services import Actor, audit_batch
from kyc import events, hooks
from kyc.choices import risk_rating_for
from kyc.models import PlatformUser

MAX_SCORE = 100
CHUNK = 500
# what the risk function reads of a user itself (the rest it counts in the records)
RISK_FIELDS = (
    "pk",
    "current_risk_score",
    "risk_rating",
    "is_potential_pep",
    "verification_status",
    "occupation",
)


@dataclass(frozen=True)
class RiskChange:
    """What a refresh did to one user: ``applied`` is the change of the score (negative when it fell)."""

    user_id: object
    applied: int
    score: int
    rating: str
    potential_pep: bool
    changed: bool


@transaction.atomic
def user_risk_refresh_many(
    *,
    user_ids: Iterable,
    reason: str,
    actor: Actor = None,
    potential_pep: Mapping[object, bool] | None = None,
) -> dict[object, RiskChange]:
    """Set each user's PEP flag (``potential_pep``, where given), then their score and rating from the facts.

    Rows are locked in primary-key order, so two writers refreshing overlapping users cannot deadlock; the
    flag is written before the score is computed (it is one of the facts). One audit entry per user whose
    risk changed, with ``reason``. A purged user is skipped. Returns the change of each user found.
    """
    ids = list(dict.fromkeys(user_ids))
    flags = dict(potential_pep or {})
    users: dict = {}
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        locked = PlatformUser.objects.select_for_update().filter(pk__in=chunk).order_by("pk")
        users.update({u.pk: u for u in locked.only(*RISK_FIELDS)})
    if not users:
        return {}
    before = {pk: (u.current_risk_score, u.risk_rating, u.is_potential_pep) for pk, u in users.items()}
    for pk, user in users.items():
        if pk in flags:
            user.is_potential_pep = bool(flags[pk])
    flagged = [u for pk, u in users.items() if u.is_potential_pep != before[pk][2]]
    moment = timezone.now()
    for value in (True, False):
        pks = [u.pk for u in flagged if u.is_potential_pep is value]
        for start in range(0, len(pks), CHUNK):
            PlatformUser.objects.filter(pk__in=pks[start : start + CHUNK]).update(
                is_potential_pep=value, updated_at=moment
            )
    scores = hooks.risk_scores.first(users=list(users.values())) or {}
    for pk, user in users.items():
        if pk in scores:
            user.current_risk_score = max(0, min(MAX_SCORE, int(scores[pk])))
            user.risk_rating = risk_rating_for(user.current_risk_score)
    after = {pk: (u.current_risk_score, u.risk_rating, u.is_potential_pep) for pk, u in users.items()}
    # one UPDATE per distinct outcome (at most a few hundred: 101 scores, 3 ratings) instead of a CASE per row,
    # which a screening flagging thousands of users at once would spend seconds compiling
    outcomes: dict[tuple, list] = {}
    for pk, now in after.items():
        if now[:2] != before[pk][:2]:
            outcomes.setdefault(now[:2], []).append(pk)
    for (score, rating), pks in outcomes.items():
        for start in range(0, len(pks), CHUNK):
            PlatformUser.objects.filter(pk__in=pks[start : start + CHUNK]).update(
                current_risk_score=score, risk_rating=rating, updated_at=moment
            )
    with audit_batch():
        for pk, now in after.items():
            if now != before[pk]:
                events.user_risk_changed(actor=actor, user_id=pk, before=before[pk], after=now, reason=reason)
    return {
        pk: RiskChange(pk, now[0] - before[pk][0], now[0], now[1], now[2], now != before[pk])
        for pk, now in after.items()
    }


def user_risk_refresh(
    *, user_id, reason: str, actor: Actor = None, potential_pep: bool | None = None
) -> RiskChange | None:
    """One user's refresh (see ``user_risk_refresh_many``); None when the user is gone."""
    flags = {} if potential_pep is None else {user_id: potential_pep}
    return user_risk_refresh_many(user_ids=[user_id], reason=reason, actor=actor, potential_pep=flags).get(user_id)
