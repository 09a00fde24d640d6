"""Deadlines of case work and the priority they give: alert SLAs per severity, the SAR filing deadline.

Priority is the share of the time to the deadline already spent: NEW until a
third, URGENT past a third, CRITICAL past two thirds, BREACHED only once the
deadline itself has passed. Finished work keeps the priority it had when it
was finished (an alert when it was closed, a SAR when it was submitted), so
a report filed on time never turns red later.

Alert deadlines are computed from the severity and the time the alert was
raised, never stored: a change of ``ALERT_SLA_HOURS`` applies to the whole
queue at once. The SAR deadline counts ``SAR_FILING_DAYS`` Eswatini calendar
days (UTC+2, no daylight saving, as the engine's reporting days) from the day
the suspicion was detected, and ends at local midnight.
"""

import datetime as dt

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Case, DateTimeField, ExpressionWrapper, F, Q, Value, When
from django.utils import timezone

from compliance.casework.choices import Priority, Severity

DEFAULT_ALERT_SLA_HOURS: dict[str, int] = {
    Severity.CRITICAL: 24,
    Severity.HIGH: 72,
    Severity.MEDIUM: 7 * 24,
    Severity.LOW: 14 * 24,
}
ESWATINI = dt.timezone(dt.timedelta(hours=2), "SAST")
# Badge colours of the admin site (unfold labels) per priority.
# How a deadline's priority reads beside a status: "Deadline: on track", never a bare "New" that reads like a
# second status (issue 31)
PRIORITY_WORDS = {
    Priority.NEW: "on track",
    Priority.URGENT: "urgent",
    Priority.CRITICAL: "critical",
    Priority.BREACHED: "breached",
}

PRIORITY_COLOURS = {
    Priority.NEW: "info",
    Priority.URGENT: "warning",
    Priority.CRITICAL: "danger",
    Priority.BREACHED: "danger",
}


def check_settings() -> None:
    """Refuse, at start-up, an ALERT_SLA_HOURS key that is not a severity."""
    unknown = sorted(set(settings.ALERT_SLA_HOURS) - set(Severity.values))
    if unknown:
        raise ImproperlyConfigured(
            f"ALERT_SLA_HOURS: unknown severity {', '.join(unknown)} (known: {', '.join(Severity.values)})"
        )


def ageing(delta) -> str:
    """A duration as a person says it: "40 min", "5 h", "3 days"."""
    seconds = abs(delta.total_seconds())
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)} h"
    return f"{int(seconds // 86400)} days"


def alert_sla(severity: str) -> dt.timedelta:
    hours = {**DEFAULT_ALERT_SLA_HOURS, **settings.ALERT_SLA_HOURS}.get(severity, DEFAULT_ALERT_SLA_HOURS["MEDIUM"])
    return dt.timedelta(hours=hours)


def priority_of(*, start: dt.datetime, due: dt.datetime, at: dt.datetime) -> str:
    """NEW, URGENT past a third of [start, due], CRITICAL past two thirds, BREACHED after ``due``."""
    if at > due:
        return Priority.BREACHED
    span = (due - start).total_seconds()
    share = (at - start).total_seconds() / span if span > 0 else 1.0
    if share > 2 / 3:
        return Priority.CRITICAL
    if share > 1 / 3:
        return Priority.URGENT
    return Priority.NEW


def alert_due_at(alert) -> dt.datetime:
    return alert.created_at + alert_sla(alert.severity)


def alert_priority(alert, *, now: dt.datetime | None = None) -> str:
    """The alert's priority now, or when it was closed."""
    at = alert.closed_at or now or timezone.now()
    return priority_of(start=alert.created_at, due=alert_due_at(alert), at=at)


def alert_due_expression():
    """``created_at`` + the SLA of the row's severity, for ordering and filtering the queue in the database."""
    return ExpressionWrapper(
        Case(
            *(When(severity=s, then=F("created_at") + Value(alert_sla(s))) for s in Severity.values),
            default=F("created_at") + Value(alert_sla(Severity.MEDIUM)),
        ),
        output_field=DateTimeField(),
    )


def alerts_past_share_q(share: float, *, now: dt.datetime | None = None) -> Q:
    """Alerts (open ones, measured now) that have spent more than ``share`` of their SLA."""
    now = now or timezone.now()
    q = Q(pk__in=[])
    for severity in Severity.values:
        q |= Q(severity=severity, created_at__lt=now - alert_sla(severity) * share)
    return q


def sar_due_at(*, detected_at: dt.datetime) -> dt.datetime:
    """The end (local midnight) of the ``SAR_FILING_DAYS``-th Eswatini day after the detection day."""
    local_day = detected_at.astimezone(ESWATINI).date()
    last_day = local_day + dt.timedelta(days=settings.SAR_FILING_DAYS)
    return dt.datetime.combine(last_day + dt.timedelta(days=1), dt.time.min, ESWATINI).astimezone(dt.UTC)


def sar_detected_at(sar) -> dt.datetime:
    """When the suspicion was detected: the first alert the SAR cites, else when the report was drafted.

    Uses the ``detected_at`` annotation of the SAR selectors when present, so
    a list costs no query per row.
    """
    annotated = getattr(sar, "first_alert_at", None)
    if annotated is not None:
        return min(annotated, sar.created_at)
    if "first_alert_at" in sar.__dict__:
        return sar.created_at
    first = sar.related_alerts.order_by("created_at").values_list("created_at", flat=True).first()
    return min(first, sar.created_at) if first else sar.created_at


def sar_priority(sar, *, detected_at: dt.datetime, now: dt.datetime | None = None) -> str:
    """The SAR's priority now, or when it was submitted to the FIU (the deadline is met or missed then)."""
    at = sar.submitted_at or now or timezone.now()
    return priority_of(start=detected_at, due=sar_due_at(detected_at=detected_at), at=at)
