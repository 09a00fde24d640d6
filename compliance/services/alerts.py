"""Writes on AML alerts: status moves with a note, and assignment. Each writes an AlertEvent and an audit entry.

Moves: an open alert can be reviewed, escalated or closed; a reviewed or
escalated one can go back and forth between those and be closed; a closed
alert is final (409 INVALID_TRANSITION), so a decision is never undone
silently: a new hit raises a new alert instead. Closing needs a note, the
officer's reason, which an audit will ask for.
"""

import datetime as dt
from decimal import Decimal

from django.db import transaction

from backoffice.errors import Conflict, ValidationFailed
from backoffice.services import audit_record
from compliance.choices import AlertStatus
from compliance.models import Alert, AlertEvent

S = AlertStatus
CLOSED = frozenset({S.CLOSED_FALSE_POSITIVE, S.CLOSED_SAR_FILED})
ALLOWED_MOVES: dict[str, frozenset[str]] = {
    S.OPEN: frozenset({S.UNDER_REVIEW, S.ESCALATED}) | CLOSED,
    S.UNDER_REVIEW: frozenset({S.OPEN, S.ESCALATED}) | CLOSED,
    S.ESCALATED: frozenset({S.UNDER_REVIEW}) | CLOSED,
    S.CLOSED_FALSE_POSITIVE: frozenset(),
    S.CLOSED_SAR_FILED: frozenset(),
}
NOTE_MAX = 2000


class InvalidTransition(Conflict):
    code = "INVALID_TRANSITION"


@transaction.atomic
def alert_transition(*, alert: Alert, actor, to_status: str, note: str = "") -> Alert:
    """Move an alert to ``to_status``, recording who, when, from, to and why."""
    if to_status not in S.values:
        raise ValidationFailed("Validation error", details={"status": [f"Must be one of {', '.join(S.values)}."]})
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ValidationFailed("Validation error", details={"note": [f"At most {NOTE_MAX} characters."]})
    locked = Alert.objects.select_for_update().get(pk=alert.pk)
    if to_status not in ALLOWED_MOVES[locked.status]:
        raise InvalidTransition(f"Cannot move alert from {locked.status} to {to_status}")
    if to_status in CLOSED and not note:
        raise ValidationFailed("A note is required to close an alert", details={"note": ["Required when closing."]})
    previous = locked.status
    locked.status = to_status
    locked.save(update_fields=["status", "updated_at"])
    AlertEvent.objects.create(alert=locked, from_status=previous, to_status=to_status, actor=actor, note=note)
    audit_record(
        actor=actor,
        action="alert.status",
        object_type="alert",
        object_id=locked.pk,
        changes={"from": previous, "to": to_status, "note": note},
    )
    return locked


@transaction.atomic
def alert_assign(*, alert: Alert, actor, assignee) -> Alert:
    """Give an open alert to an officer (``assignee`` None takes it back to the queue)."""
    locked = Alert.objects.select_for_update().get(pk=alert.pk)
    if locked.status in CLOSED:
        raise InvalidTransition("A closed alert cannot be assigned")
    if assignee is not None and not assignee.has_capability("alerts.manage"):
        raise ValidationFailed(
            "This staff member cannot work on alerts", details={"assignedTo": ["Role may not manage alerts."]}
        )
    previous = locked.assigned_to
    locked.assigned_to = assignee
    locked.save(update_fields=["assigned_to", "updated_at"])
    note = f"Assigned to {assignee.email}" if assignee else "Unassigned"
    AlertEvent.objects.create(alert=locked, from_status=locked.status, to_status=locked.status, actor=actor, note=note)
    audit_record(
        actor=actor,
        action="alert.assign",
        object_type="alert",
        object_id=locked.pk,
        changes={"from": getattr(previous, "email", None), "to": getattr(assignee, "email", None)},
    )
    return locked


# The SAR activity type an alert most likely supports, by the rule type that raised it.
ACTIVITY_BY_RULE_TYPE = {
    "structuring": "structuring",
    "threshold": "large_cash",
    "regulatory_reporting": "large_cash",
    "cft_related": "terrorist_financing",
    "pep_related": "money_laundering",
}


def alert_sar_draft(alert: Alert) -> dict:
    """What a SAR filed from this alert starts with: subject, transactions, their total, a description."""
    txs = list(alert.related_transactions.order_by("created_at"))
    source = alert.details.get("ruleName") or ("PEP name match" if alert.alert_type == "PEP_MATCH" else "alert")
    return {
        "entity_user_id": alert.user_id,
        "suspicious_activity_type": ACTIVITY_BY_RULE_TYPE.get(alert.details.get("ruleType", ""), "unusual_pattern"),
        "activity_description": (
            f"Raised by AML alert {alert.pk} ({alert.details.get('ruleId', alert.alert_type)}: {source}, "
            f"severity {alert.severity}) on {len(txs)} transaction(s)."
        ),
        "date_of_suspicious_activity": max((t.created_at for t in txs), default=alert.created_at)
        .astimezone(dt.UTC)
        .date(),
        "amount_involved": sum((t.amount for t in txs), Decimal("0.00")),
        "related_transaction_ids": [t.pk for t in txs],
        "related_alert_ids": [alert.pk],
    }


@transaction.atomic
def alert_file_sar(*, alert: Alert, actor):
    """Draft a SAR from an alert; filing it closes the alert as CLOSED_SAR_FILED (compliance.services.sar).

    One transaction: either the report exists and the alert says so, or
    neither changed. The SAR starts in DRAFT; the officer completes its
    description and moves it through the SAR workflow.
    """
    from compliance.services.sar import sar_create

    locked = Alert.objects.select_for_update().get(pk=alert.pk)
    if locked.status in CLOSED:
        raise InvalidTransition(f"Cannot move alert from {locked.status} to {S.CLOSED_SAR_FILED}")
    return sar_create(actor=actor, **alert_sar_draft(locked))
