"""Reads of AML alerts: the triage list (with the severity rank it sorts by) and one alert with its history."""

import uuid

from django.db.models import Prefetch

from backoffice.errors import NotFound
from compliance.aml.filtersets import severity_rank
from compliance.aml.models.alerts import Alert, AlertEvent
from kyc.models import Transaction

ALERT_NOT_FOUND = "Alert not found"


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
