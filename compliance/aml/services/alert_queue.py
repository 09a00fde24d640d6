"""The triage queue's bulk steps as the admin site offers them: what each step needs, and the steps themselves.

The API's bulk endpoint (``alerts.alert_bulk``) assigns and closes; the queue
also starts reviews, and it asks the officer to confirm before acting on
alerts a colleague holds. Those rules live here, not in the page, so the
page only shows the form and the outcome.
"""

from collections.abc import Sequence

from django.db import transaction

from backoffice.errors import DomainError, ValidationFailed
from backoffice.models import Staff
from backoffice.services import Actor
from compliance.aml.choices import AlertStatus
from compliance.aml.models.alerts import Alert
from compliance.aml.services.alerts import BulkResult, alert_assign, alert_bulk, alert_transition, assignee_from_id

QUEUE_ACTIONS = {
    "assign_to_me": "Assign to me",
    "assign_to_colleague": "Assign to a colleague",
    "start_review": "Start review",
    "close_false_positive": "Close as false positive",
}


def held_by_others(alerts: Sequence[Alert], *, actor: Actor) -> list[Alert]:
    """The alerts assigned to someone other than ``actor``."""
    return [a for a in alerts if a.assigned_to_id and a.assigned_to_id != actor.pk]


def alert_queue_apply(
    *,
    actor: Actor,
    action: str,
    alerts: Sequence[Alert],
    assignee: Staff | None = None,
    reason_code: str = "",
    note: str = "",
    confirm_others: bool = False,
) -> BulkResult:
    """One queue step (``QUEUE_ACTIONS``) on the chosen alerts, each succeeding or failing alone.

    Refused as a whole (ValidationFailed, nothing done) when the step misses what it needs: the confirmation to
    act on colleagues' alerts, the colleague to assign to, the reason code and the note to close with.
    """
    if action not in QUEUE_ACTIONS:
        raise ValidationFailed("Unknown queue action")
    if held_by_others(alerts, actor=actor) and not confirm_others:
        raise ValidationFailed("Some alerts are assigned to someone else: confirm that you act on them anyway.")
    if action == "assign_to_colleague" and assignee is None:
        raise ValidationFailed("Choose the colleague.")
    if action == "close_false_positive" and not (reason_code and note.strip()):
        raise ValidationFailed("Closing needs a reason code and a note.")
    ids = [a.pk for a in alerts]
    if action in ("assign_to_me", "assign_to_colleague"):
        assignee = actor if action == "assign_to_me" else assignee
        return alert_bulk(actor=actor, alert_ids=ids, action="assign", assignee=assignee)
    if action == "close_false_positive":
        return alert_bulk(actor=actor, alert_ids=ids, action="close_false_positive", reason_code=reason_code, note=note)
    return alert_bulk_start_review(actor=actor, alerts=alerts, note=note)


def alert_bulk_start_review(*, actor: Actor, alerts: Sequence[Alert], note: str = "") -> BulkResult:
    """Start the review of each alert; one that cannot be started (closed, already in review) is reported beside
    the others' success."""
    updated, errors = 0, []
    for alert in alerts:
        try:
            with transaction.atomic():
                alert_transition(alert=alert, actor=actor, to_status=AlertStatus.UNDER_REVIEW, note=note)
        except DomainError as exc:
            errors.append((str(alert.pk), exc.message))
        else:
            updated += 1
    return BulkResult(updated=updated, errors=errors)


# The alert page's buttons that move the alert, and where each moves it.
TRIAGE_MOVES = {
    "start_review": AlertStatus.UNDER_REVIEW,
    "escalate": AlertStatus.ESCALATED,
    "return_to_queue": AlertStatus.OPEN,
    "close_false_positive": AlertStatus.CLOSED_FALSE_POSITIVE,
    "reopen": AlertStatus.OPEN,
}


def alert_triage_step(
    *, alert: Alert, actor: Actor, op: str, note: str = "", reason_code: str = "", assignee_id=None
) -> Alert:
    """One step from the alert page: take it ("assign_me"), give it to a colleague or back to the queue
    ("assign", ``assignee_id`` None), or move it (``TRIAGE_MOVES``)."""
    if op == "assign_me":
        return alert_assign(alert=alert, actor=actor, assignee=actor)
    if op == "assign":
        return alert_assign(alert=alert, actor=actor, assignee=assignee_from_id(assignee_id))
    if op not in TRIAGE_MOVES:
        raise ValidationFailed("Unknown triage step")
    return alert_transition(alert=alert, actor=actor, to_status=TRIAGE_MOVES[op], note=note, reason_code=reason_code)
