"""What compliance does around held transactions: the alerts that held them follow the decision, and escalation.

The decisions themselves (release, reject) are kyc's ledger service's
(``kyc.services.ledger.held_transaction_release`` / ``_reject``); this module
reacts to them through ``kyc.hooks.held_transaction_decided``: each alert
that held the transaction shows the decision in its case thread, and once
none of its transactions is still held the alert is resolved by it (a
rejection confirms what the alert suspected, a release explains it). An
alert a SAR cites is the report's to close, and stays as it is.
"""

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.services import Actor
from compliance.aml.choices import AlertStatus, CloseReason
from compliance.aml.models.alerts import Alert
from compliance.aml.services.alerts import alert_transition
from compliance.casework.services.casework import comment_add
from kyc.choices import TransactionStatus
from kyc.models import Transaction

ESCALABLE = (AlertStatus.OPEN, AlertStatus.UNDER_REVIEW)


def held_alerts(transaction_ids) -> list[Alert]:
    return list(Alert.objects.filter(related_transactions__in=transaction_ids).distinct().order_by("created_at"))


def on_held_transaction_decided(*, transaction: Transaction, actor: Actor, **_) -> None:
    """The decision on a held transaction, written into the thread of every alert linked to it."""
    verb = "released (the money moved)" if transaction.status == TransactionStatus.COMPLETED else "rejected"
    text = (
        f"Held transaction {transaction.reference} (SZL {transaction.amount:,.2f} {transaction.type}) {verb} "
        f"by {getattr(actor, 'full_name', '') or getattr(actor, 'email', 'staff')}: {transaction.review_note}"
    )
    alerts = held_alerts([transaction.pk])
    for alert in alerts:
        comment_add(actor=actor, text=text[:4000], alert=alert)
    _resolve(alerts, actor=actor, text=text)


def _resolve(alerts: list[Alert], *, actor: Actor, text: str) -> None:
    """Close each open alert whose transactions are all decided: a true positive when any was rejected, a false
    positive (explained by the review) when all were released. One still held keeps the alert open; one a SAR
    cites waits for the report."""
    open_ids = (
        Alert.objects.filter(pk__in=[a.pk for a in alerts], status__in=ESCALABLE + (AlertStatus.ESCALATED,))
        .exclude(sars__isnull=False)
        .values_list("pk", flat=True)
    )
    for alert in Alert.objects.filter(pk__in=list(open_ids)).order_by("created_at", "id"):
        statuses = set(alert.related_transactions.values_list("status", flat=True))
        if TransactionStatus.HELD in statuses:
            continue
        rejected = TransactionStatus.REJECTED in statuses
        alert_transition(
            alert=alert,
            actor=actor,
            to_status=AlertStatus.CLOSED_TRUE_POSITIVE if rejected else AlertStatus.CLOSED_FALSE_POSITIVE,
            note=text[:NOTE_MAX_LENGTH],
            reason_code=CloseReason.HELD_TRANSACTION_REJECTED if rejected else CloseReason.HELD_TRANSACTION_RELEASED,
        )


def held_overdue_since(now: dt.datetime | None = None) -> dt.datetime:
    return (now or timezone.now()) - dt.timedelta(hours=settings.AML_HELD_ESCALATE_HOURS)


@transaction.atomic
def held_escalate(*, now: dt.datetime | None = None) -> int:
    """Alerts of transactions held longer than ``AML_HELD_ESCALATE_HOURS`` move to ESCALATED (once); returns how many.

    Run by ``run_aml_scan`` and ``escalate_held_transactions``; an alert already escalated, or closed, is left
    alone, so running it again changes nothing.
    """
    overdue = Transaction.objects.filter(status=TransactionStatus.HELD, created_at__lt=held_overdue_since(now))
    alerts = Alert.objects.filter(related_transactions__in=overdue, status__in=ESCALABLE).distinct()
    count = 0
    for alert in alerts:
        alert_transition(
            alert=alert,
            actor=None,
            to_status=AlertStatus.ESCALATED,
            note=f"A transaction this alert held has waited more than {settings.AML_HELD_ESCALATE_HOURS} h "
            "for a decision.",
        )
        count += 1
    return count
