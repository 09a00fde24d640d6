"""Reads of the admin's triage pages: the alert page, the colleagues to assign to, the held-transaction page, and
the dashboard's figures. The admin site reads only through these (a test holds it to that)."""

from django.db.models import Count, Prefetch, Q, prefetch_related_objects
from django.shortcuts import get_object_or_404
from django.utils import timezone

from backoffice import roles
from backoffice.choices import StaffRole
from backoffice.models import Staff
from compliance.aml.models.alerts import OPEN_STATES, Alert
from compliance.aml.models.governance import RuleProposal
from compliance.aml.models.rules import AMLRuleVersion
from compliance.casework import deadlines
from compliance.casework.choices import Priority, Severity
from kyc.choices import TransactionStatus
from kyc.models import Transaction


def assignable_staff():
    """Colleagues an alert may go to: active staff whose role works on alerts."""
    working = [role for role in StaffRole.values if roles.has_capability(role, "alerts.manage")]
    return Staff.objects.filter(is_active=True, role__in=working).order_by("first_name", "last_name", "email")


def alerts_with_assignee():
    """Alerts with whoever holds them (a triage step warns when it is someone else)."""
    return Alert.objects.select_related("assigned_to")


def alert_page_prefetch(alert: Alert) -> Alert:
    """One alert's rule, subject, assignee and transactions (with their counterparties), in a fixed number of
    queries."""
    transactions = Transaction.objects.select_related("counterparty_user", "counterparty_vendor").order_by(
        "created_at", "id"
    )
    prefetch_related_objects(
        [alert], "rule", "user", "assigned_to", Prefetch("related_transactions", queryset=transactions)
    )
    return alert


def alert_rule_conditions(alert: Alert) -> dict | None:
    """The conditions of the rule version that raised the alert (the rule's current ones if that version is gone)."""
    if not alert.rule_id:
        return None
    version = AMLRuleVersion.objects.filter(rule_id=alert.rule_id, version=alert.rule_version).first()
    return (version.snapshot or {}).get("conditions") if version else alert.rule.conditions


def alerts_of_priority(queryset, priority: str, *, now=None):
    """The open alerts of ``queryset`` whose share of their SLA spent puts them at ``priority`` (BREACHED: overdue)."""
    now = now or timezone.now()
    past = {Priority.URGENT: 1 / 3, Priority.CRITICAL: 2 / 3, Priority.BREACHED: 1.0}
    queryset = queryset.filter(status__in=OPEN_STATES)
    if priority == Priority.NEW:
        return queryset.exclude(deadlines.alerts_past_share_q(1 / 3, now=now))
    queryset = queryset.filter(deadlines.alerts_past_share_q(past[priority], now=now))
    following = {Priority.URGENT: 2 / 3, Priority.CRITICAL: 1.0}.get(priority)
    return queryset.exclude(deadlines.alerts_past_share_q(following, now=now)) if following else queryset


def alert_history(alert: Alert) -> list:
    """The alert's events with their actors, oldest first."""
    return list(alert.events.select_related("actor").order_by("created_at", "id"))


def alert_reports(alert: Alert):
    """The reports citing the alert, newest first, through the relation SARs declare (aml does not import sars)."""
    return alert.sars.only("id", "sar_id", "status", "created_at").order_by("-created_at")


def alert_work_counts(staff) -> dict:
    """The dashboard's "my work" figures for alerts, in one aggregate query."""
    now = timezone.now()
    return Alert.objects.filter(status__in=OPEN_STATES).aggregate(
        mine=Count("id", filter=Q(assigned_to=staff)),
        mine_overdue=Count("id", filter=Q(assigned_to=staff) & deadlines.alerts_past_share_q(1.0, now=now)),
        overdue=Count("id", filter=deadlines.alerts_past_share_q(1.0, now=now)),
        unassigned=Count("id", filter=Q(assigned_to__isnull=True)),
        **{s.lower(): Count("id", filter=Q(severity=s)) for s in Severity.values},
    )


def proposals_awaiting(staff) -> int:
    """Rule changes a colleague proposed that ``staff`` may decide (four eyes: not their own)."""
    return RuleProposal.objects.filter(status="PENDING").exclude(proposed_by=staff).count()


# ---------------------------------------------------------------- held transactions


def held_transaction_page(transaction_id, *, recent: int = 8) -> dict:
    """Everything the held transaction's page shows about it and its customer (404 when there is no such row)."""
    tx = get_object_or_404(
        Transaction.objects.select_related("user", "reviewed_by", "counterparty_user", "counterparty_vendor"),
        pk=transaction_id,
    )
    user = tx.user
    return {
        "tx": tx,
        "recent": list(Transaction.objects.filter(user=user).exclude(pk=tx.pk).order_by("-created_at", "-id")[:recent]),
        "alert_counts": Alert.objects.filter(user=user).aggregate(
            open=Count("id", filter=Q(status__in=OPEN_STATES)), total=Count("id")
        ),
        "other_held": Transaction.objects.filter(user=user, status=TransactionStatus.HELD).exclude(pk=tx.pk).count(),
        "history": list(tx.events.select_related("actor").order_by("created_at", "id")),
    }


def held_counts(*, overdue_since) -> dict:
    """Held transactions, and those held since before ``overdue_since`` (the escalation time), in one query."""
    return Transaction.objects.filter(status=TransactionStatus.HELD).aggregate(
        held=Count("id"), overdue=Count("id", filter=Q(created_at__lt=overdue_since))
    )
