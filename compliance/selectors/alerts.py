"""Reads of AML alerts: the triage list (filters, severity ordering) and one alert with its history."""

import uuid

import django_filters
from django.db.models import Case, IntegerField, Prefetch, Value, When

from backoffice.api.filters import ListFilterSet
from backoffice.errors import NotFound
from compliance.choices import AlertStatus, AlertType, Severity
from compliance.models import Alert, AlertEvent
from kyc.models import Transaction

ALERT_NOT_FOUND = "Alert not found"

# Higher is more urgent, so "sortBy=severity&sortOrder=desc" puts CRITICAL first.
SEVERITY_RANK = {Severity.LOW: 1, Severity.MEDIUM: 2, Severity.HIGH: 3, Severity.CRITICAL: 4}


def severity_rank():
    return Case(
        *(When(severity=s, then=Value(r)) for s, r in SEVERITY_RANK.items()),
        default=Value(0),
        output_field=IntegerField(),
    )


class AlertFilterSet(ListFilterSet):
    """Filters of GET /admin/aml/alerts: status, severity, alertType, userId, dates; sortBy createdAt|severity."""

    sort_fields = {"createdAt": "created_at", "severity": "severity_rank"}

    status = django_filters.ChoiceFilter(choices=AlertStatus.choices)
    severity = django_filters.ChoiceFilter(choices=Severity.choices)
    alertType = django_filters.ChoiceFilter(field_name="alert_type", choices=AlertType.choices)
    userId = django_filters.UUIDFilter(field_name="user_id")

    class Meta:
        model = Alert
        fields = []


def _base():
    return (
        Alert.objects.select_related("rule", "user", "assigned_to")
        .prefetch_related(Prefetch("related_transactions", queryset=Transaction.objects.only("id").order_by()))
        .annotate(severity_rank=severity_rank())
    )


def alert_list():
    return _base()


def alert_get(alert_id, *, with_events: bool = False) -> Alert:
    try:
        pk = uuid.UUID(str(alert_id))
    except ValueError:
        raise NotFound(ALERT_NOT_FOUND) from None
    qs = _base()
    if with_events:
        qs = qs.prefetch_related(Prefetch("events", queryset=AlertEvent.objects.select_related("actor")))
    alert = qs.filter(pk=pk).first()
    if alert is None:
        raise NotFound(ALERT_NOT_FOUND)
    return alert
