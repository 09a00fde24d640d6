"""Alerts follow the SARs that cite them.

An alert a SAR cites is ESCALATED while the report is being written, reviewed
and approved ("SAR in progress"), and CLOSED_SAR_FILED only once the report
is submitted to the FIU. A report returned to DRAFT keeps its alerts
ESCALATED; a draft that is abandoned, or stops citing an alert, leaves it
ESCALATED for an officer to decide, never closed as if a report had been
filed. Each move is the alert's own transition (history row and audit entry).
"""

from collections.abc import Iterable

from backoffice.services import Actor
from compliance.aml.choices import AlertStatus
from compliance.aml.models.alerts import ALERT_TRANSITIONS, Alert
from compliance.aml.services.alerts import alert_transition
from compliance.sars.models.sar import IN_PROGRESS, SAR

# A SAR in one of these states is still being written or checked: its alerts wait, escalated.


def alerts_escalate_for_sar(*, alerts: Iterable[Alert], sar: SAR, actor: Actor) -> None:
    """Escalate each open alert ``sar`` now cites (one already escalated or closed stays as it is)."""
    for alert in alerts:
        if (alert.status, AlertStatus.ESCALATED) in ALERT_TRANSITIONS:
            alert_transition(
                alert=alert,
                actor=actor,
                to_status=AlertStatus.ESCALATED,
                note=f"Cited by SAR {sar.sar_id}: SAR in progress.",
            )


def alerts_close_for_sar(*, sar: SAR, actor: Actor) -> None:
    """``sar`` went to the FIU: every alert it cites that is still open closes as SAR filed."""
    for alert in sar.related_alerts.order_by("created_at", "id"):
        if not alert.is_closed:
            alert_transition(
                alert=alert,
                actor=actor,
                to_status=AlertStatus.CLOSED_SAR_FILED,
                note=f"SAR {sar.sar_id} submitted to the FIU.",
            )


def sars_in_progress_citing(alert: Alert) -> list[SAR]:
    """The reports still in progress that cite ``alert``, oldest first."""
    return list(alert.sars.filter(status__in=IN_PROGRESS).order_by("created_at"))
