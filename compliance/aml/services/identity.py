"""Duplicate identities found by verification become alerts in the triage queue.

kyc's ``identity_duplicate`` hook calls ``duplicate_identity_alert`` (registered in ``ComplianceConfig.ready``):
one DUPLICATE_IDENTITY alert per pair of users, whichever of the two was checked and however many times, with
the finding and both user ids in ``details``. It is raised on the user whose check found it.

The alert stays open until the identity check is decided; ``identity_decision_decides_alerts`` (kyc's
``identity_duplicate_decided`` hook) then decides it: an approval (two people, each with a reason) closes it as a
false positive with their reasons; a rejection escalates it, a duplicate identity being a matter for a SAR.
"""

from backoffice.services import Actor
from compliance.aml.choices import AlertStatus, AlertType, CloseReason
from compliance.aml.models.alerts import OPEN_STATES, Alert
from compliance.aml.services.alerts import NewAlert, alert_raise_many, alert_transition, dedup_key
from compliance.casework.choices import Severity
from kyc.models import PlatformUser

SEVERITY = {"ID_NUMBER": Severity.HIGH, "FACE": Severity.HIGH, "IMAGE": Severity.MEDIUM}


def duplicate_identity_alert(*, user, other_user_id, kind: str, score: float | None, source: dict, **_) -> None:
    pair = sorted([str(user.pk), str(other_user_id)])
    other = PlatformUser.objects.filter(pk=other_user_id).only("first_name", "last_name").first()
    details = {
        "finding": kind,
        "user_ids": pair,
        "user_id": str(user.pk),
        "other_user_id": str(other_user_id),
        "other_user_name": other.full_name if other is not None else "",
        "score": score,
        "job_id": source.get("job_id"),
        "detail": source.get("detail", ""),
    }
    alert_raise_many(
        alerts=[
            NewAlert(
                user_id=user.pk,
                dedup_key=dedup_key(AlertType.DUPLICATE_IDENTITY, *pair),
                severity=SEVERITY.get(kind, Severity.MEDIUM),
                details=details,
                alert_type=AlertType.DUPLICATE_IDENTITY,
                note=f"Verification job {source.get('job_id')}: {source.get('detail', kind)}",
            )
        ]
    )


def identity_decision_decides_alerts(
    *, user, other_user_ids, approved: bool, note: str, actor: Actor, source: dict, **_
) -> list[Alert]:
    """Decide the open DUPLICATE_IDENTITY alerts of ``user``'s pairs with ``other_user_ids`` as the check was."""
    keys = [dedup_key(AlertType.DUPLICATE_IDENTITY, *sorted([str(user.pk), str(other)])) for other in other_user_ids]
    decided = []
    for alert in Alert.objects.filter(dedup_key__in=keys, status__in=OPEN_STATES).order_by("created_at", "id"):
        if approved:
            decided.append(
                alert_transition(
                    alert=alert,
                    actor=actor,
                    to_status=AlertStatus.CLOSED_FALSE_POSITIVE,
                    note=note,
                    reason_code=CloseReason.OTHER,
                )
            )
        elif alert.status != AlertStatus.ESCALATED:
            decided.append(alert_transition(alert=alert, actor=actor, to_status=AlertStatus.ESCALATED, note=note))
    return decided
