"""An officer's review of a PEP match: confirm (the user is the PEP) or dismiss (they are not), audited.

The note is required either way: it is what an examiner reads to know why. A decided match decides its
PEP_MATCH alert too (closed through the alert service, with the review's reason), and the user's
potential-PEP flag and risk score follow the decision through kyc's risk service.
"""

from django.db import transaction
from django.utils import timezone

from backoffice.errors import ValidationFailed
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.services import Actor, Move, fsm_move
from compliance.aml.choices import AlertStatus, CloseReason
from compliance.aml.models.alerts import Alert
from compliance.aml.services.alerts import alert_transition
from compliance.peps import events
from compliance.peps.choices import PEPMatchStatus
from compliance.peps.models.pep import PEPMatch, PEPMatchEvent
from kyc.models import PlatformUser
from kyc.services import user_risk_refresh

# the alert a decision closes, and why; an escalated alert (a SAR is being written about it) is the case's to close
ALERT_DECIDED = {
    PEPMatchStatus.CONFIRMED: CloseReason.PEP_MATCH_CONFIRMED,
    PEPMatchStatus.DISMISSED: CloseReason.PEP_MATCH_DISMISSED,
}
CLOSED_BY_REVIEW = (AlertStatus.OPEN, AlertStatus.UNDER_REVIEW)


def _note(note: str | None) -> str:
    note = (note or "").strip()
    if not note:
        raise ValidationFailed(
            "A note is required to review a match", details={"note": ["Say why: it is kept as the evidence."]}
        )
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationFailed("Validation error", details={"note": [f"At most {NOTE_MAX_LENGTH} characters."]})
    return note


@transaction.atomic
def pep_match_review(*, match: PEPMatch, actor: Actor, status: str, note: str) -> PEPMatch:
    """Confirm or dismiss a match, with the officer's note; audited; its alert and the user's flag follow.

    Dismissing clears the potential-PEP flag when no other match of the user is still open; confirming (a
    dismissed match too) flags the user again; the score is then recomputed from the facts.
    """
    if status not in ALERT_DECIDED:
        raise ValidationFailed("Validation error", details={"status": ["Must be CONFIRMED or DISMISSED."]})
    note = _note(note)
    # the customer first, then the match and its alert: the order screening (which refreshes the customer's risk,
    # then writes the matches) and the alert service take, so none of them waits on another holding the rest
    list(PlatformUser.objects.select_for_update().filter(pk=match.user_id).values_list("pk", flat=True))

    def stamp(move: Move[PEPMatch]) -> None:
        move.instance.reviewed_by = actor
        move.instance.reviewed_at = timezone.now()
        move.instance.review_note = note

    move = fsm_move(
        match,
        to=status,
        actor=actor,
        note=note,
        history=PEPMatchEvent,
        event=events.pep_match_reviewed,
        before_save=stamp,
    )
    locked = move.instance
    _decide_alert(locked, actor=actor, status=status, note=note)
    _follow_risk(locked, actor=actor, status=status, previous=move.source)
    return locked


def _decide_alert(match: PEPMatch, *, actor: Actor, status: str, note: str) -> None:
    if match.alert_id is None:
        return
    alert = Alert.objects.filter(pk=match.alert_id, status__in=CLOSED_BY_REVIEW).first()
    if alert is None:
        return
    verb = "confirmed" if status == PEPMatchStatus.CONFIRMED else "dismissed"
    alert_transition(
        alert=alert,
        actor=actor,
        # confirmed: the alert was right (a true positive); dismissed: it was not
        to_status=AlertStatus.CLOSED_TRUE_POSITIVE
        if status == PEPMatchStatus.CONFIRMED
        else AlertStatus.CLOSED_FALSE_POSITIVE,
        note=f"PEP match with {match.pep_name} {verb}: {note}",
        reason_code=ALERT_DECIDED[status],
    )


def _follow_risk(match: PEPMatch, *, actor: Actor, status: str, previous: str) -> None:
    """The flag follows the decision (a dismissal clears it unless another match of the user is still open),
    and the score is recomputed from the facts (the flag, the alert just closed)."""
    if status == PEPMatchStatus.DISMISSED:
        flagged = (
            PEPMatch.objects.filter(user_id=match.user_id)
            .exclude(pk=match.pk)
            .exclude(status=PEPMatchStatus.DISMISSED)
            .exists()
        )
    else:
        flagged = True
    change = user_risk_refresh(
        user_id=match.user_id,
        potential_pep=flagged,
        reason=f"PEP match with {match.pep_name} {status.lower()}",
        actor=actor,
    )
    if status == PEPMatchStatus.DISMISSED:
        match.risk_points = 0
    elif previous == PEPMatchStatus.DISMISSED and change is not None:
        match.risk_points = max(0, change.applied)
    match.save(update_fields=["risk_points", "updated_at"])
