"""An officer's review of a PEP match: confirm (the user is the PEP) or dismiss (they are not), audited.

The user's potential-PEP flag and risk score follow the decision through kyc's risk service.
"""

from django.db import transaction
from django.utils import timezone

from backoffice.errors import InvalidTransition, ValidationFailed
from backoffice.services import audit_record
from compliance.peps.choices import PEPMatchStatus
from compliance.peps.models.pep import PEP_MATCH_TRANSITIONS, PEPMatch, PEPMatchEvent
from compliance.peps.services.screening import RISK_POINTS
from kyc.services import RiskFlag, user_risk_flag_many


@transaction.atomic
def pep_match_review(*, match: PEPMatch, actor, status: str, note: str = "") -> PEPMatch:
    """Confirm or dismiss a match, with the officer's note; audited, and the user's flag follows.

    Dismissing takes back the risk points the match added and clears the potential-PEP flag when no other
    match of the user is still open; confirming (a dismissed match too) flags the user again.
    """
    if status not in (PEPMatchStatus.CONFIRMED, PEPMatchStatus.DISMISSED):
        raise ValidationFailed("Validation error", details={"status": ["Must be CONFIRMED or DISMISSED."]})
    note = (note or "").strip()
    if len(note) > 2000:
        raise ValidationFailed("Validation error", details={"note": ["At most 2000 characters."]})
    locked = PEPMatch.objects.select_for_update().get(pk=match.pk)
    method = PEP_MATCH_TRANSITIONS.get((locked.status, status))
    if method is None:
        raise InvalidTransition(f"Cannot move PEP match from {locked.status} to {status}")
    previous = locked.status
    getattr(locked, method)()
    if status == PEPMatchStatus.DISMISSED:
        still_open = (
            PEPMatch.objects.filter(user_id=locked.user_id)
            .exclude(pk=locked.pk)
            .exclude(status=PEPMatchStatus.DISMISSED)
            .exists()
        )
        user_risk_flag_many(
            flags=[RiskFlag(locked.user_id, -locked.risk_points, potential_pep=still_open)],
            reason="PEP match dismissed",
            actor=actor,
        )
        locked.risk_points = 0
    else:
        points = RISK_POINTS if previous == PEPMatchStatus.DISMISSED else 0
        change = user_risk_flag_many(
            flags=[RiskFlag(locked.user_id, points, potential_pep=True)], reason="PEP match confirmed", actor=actor
        )[0]
        if points:
            locked.risk_points = max(0, change.applied)
    locked.reviewed_by = actor
    locked.reviewed_at = timezone.now()
    locked.review_note = note
    locked.save()
    PEPMatchEvent.objects.create(match=locked, from_status=previous, to_status=status, actor=actor, note=note)
    audit_record(
        actor=actor,
        action="pep_match.review",
        object_type="pep_match",
        object_id=locked.pk,
        changes={"from": previous, "to": status, "note": note, "user_id": str(locked.user_id), "pep": locked.pep_name},
    )
    return locked
