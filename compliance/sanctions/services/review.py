"""An officer's review of a sanctions match: confirm (the party is the listed one) or dismiss, with a note, audited.

A dismissal closes the match's alert. A confirmation freezes a matched customer (``kyc.services.user_freeze``:
every payment of theirs and to them blocked, credits refused) and opens a SAR draft (reason
``sanctions_violation``) that cites the entry and the match's alert, which stays escalated until the report goes.
"""

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from backoffice.errors import ValidationFailed
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.services import Actor, Move, fsm_move
from compliance.aml.choices import AlertStatus, CloseReason
from compliance.aml.models.alerts import Alert
from compliance.aml.services.alerts import alert_transition
from compliance.sanctions import events
from compliance.sanctions.match_choices import DECIDABLE, MatchParty, MatchStatus
from compliance.sanctions.models.match import SanctionsMatch, SanctionsMatchEvent
from compliance.sars.choices import ActivityType
from compliance.sars.services.sar import sar_create
from kyc.choices import TransactionStatus
from kyc.models import PlatformUser, Transaction
from kyc.services import user_freeze

OPEN_ALERT = (AlertStatus.OPEN, AlertStatus.UNDER_REVIEW)
# the customer's transactions a SAR on a counterparty match cites: those naming the counterparty, latest first
CITED_MAX = 50


def _note(note: str | None) -> str:
    note = (note or "").strip()
    if not note:
        raise ValidationFailed(
            "A note is required to review a match", details={"note": ["Say why: it is kept as the evidence."]}
        )
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationFailed("Validation error", details={"note": [f"At most {NOTE_MAX_LENGTH} characters."]})
    return note


def entry_citation(match: SanctionsMatch) -> str:
    entry = match.entry
    return f"{entry.name} ({entry.sanctions_list.code} {entry.reference})"


@transaction.atomic
def sanctions_match_review(*, match: SanctionsMatch, actor: Actor, status: str, note: str) -> SanctionsMatch:
    """Confirm or dismiss a POTENTIAL match with the officer's note; a decided one is 409 INVALID_TRANSITION."""
    if status not in DECIDABLE:
        raise ValidationFailed("Validation error", details={"status": ["Must be CONFIRMED or DISMISSED."]})
    note = _note(note)
    if match.user_id:
        # the customer first, then the match: the order the ledger (wallet lock, then screening) takes them in
        list(PlatformUser.objects.select_for_update().filter(pk=match.user_id).values_list("pk", flat=True))

    def stamp(move: Move[SanctionsMatch]) -> None:
        move.instance.note = note
        move.instance.decided_by = actor
        move.instance.decided_at = timezone.now()

    move = fsm_move(
        match,
        to=status,
        actor=actor,
        note=note,
        history=SanctionsMatchEvent,
        event=events.match_reviewed,
        before_save=stamp,
        related=("entry", "entry__sanctions_list"),
    )
    decided = move.instance
    if status == MatchStatus.DISMISSED:
        _close_alert(decided, actor=actor, note=note)
    else:
        _confirmed(decided, actor=actor, note=note)
    return decided


def _close_alert(match: SanctionsMatch, *, actor: Actor, note: str) -> None:
    alert = Alert.objects.filter(pk=match.alert_id, status__in=OPEN_ALERT).first() if match.alert_id else None
    if alert is not None:
        alert_transition(
            alert=alert,
            actor=actor,
            to_status=AlertStatus.CLOSED_FALSE_POSITIVE,
            note=f"Sanctions match with {entry_citation(match)} dismissed: {note}",
            reason_code=CloseReason.SANCTIONS_MATCH_DISMISSED,
        )


def _confirmed(match: SanctionsMatch, *, actor: Actor, note: str) -> None:
    if match.user_id is None:
        return
    citation = entry_citation(match)
    if match.party == MatchParty.USER:
        user_freeze(user=match.user, actor=actor, reason=f"Sanctions match confirmed: {citation}")
        cited = Transaction.objects.filter(
            user_id=match.user_id, status__in=(TransactionStatus.HELD, TransactionStatus.BLOCKED)
        )
        who = "The customer is"
    else:
        cited = Transaction.objects.filter(user_id=match.user_id, counterparty_name__iexact=match.counterparty_name)
        who = f"The customer's counterparty {match.counterparty_name} is"
    transactions = list(cited.order_by("-created_at")[:CITED_MAX])
    entry = match.entry
    programmes = ", ".join(entry.programs or []) or "not stated"
    description = (
        f"WHO: {who} the listed party {citation}, listed on {entry.listed_on or 'an unstated date'} "
        f"(programmes: {programmes}).\n\n"
        f"WHAT: Sanctions match confirmed by {getattr(actor, 'email', 'staff')} at score {match.score:.2f}: "
        f"{match.explanation}\n\nWHY: {note}"
    )
    alerts = (
        [match.alert_id]
        if match.alert_id and Alert.objects.filter(pk=match.alert_id, status__in=OPEN_ALERT).exists()
        else []
    )
    sar_create(
        actor=actor,
        entity_user_id=match.user_id,
        suspicious_activity_type=ActivityType.SANCTIONS_VIOLATION,
        activity_description=description,
        date_of_suspicious_activity=timezone.localdate(),
        amount_involved=sum((t.amount for t in transactions), Decimal("0.00")),
        related_transaction_ids=[t.pk for t in transactions],
        related_alert_ids=alerts,
    )
