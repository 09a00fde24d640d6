"""Writes on AML alerts: raising them, status moves with a note, and assignment.

Every write records an AlertEvent (the alert's history) and an audit entry,
whoever makes it: an officer in the admin site or the API, or the AML engine
raising alerts in bulk. The moves themselves are the ``Alert`` model's
declared transitions; closing needs a note, the officer's reason, which an
audit will ask for.
"""

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection, transaction

from backoffice.errors import InvalidTransition, ValidationFailed
from backoffice.services import audit_entry, audit_record, audit_record_many
from compliance.choices import AlertStatus, AlertType
from compliance.models import Alert, AlertEvent
from compliance.models.alerts import ALERT_TRANSITIONS, CLOSED_STATES

NOTE_MAX = 2000
CHUNK = 500


@dataclass(frozen=True)
class NewAlert:
    """An alert to raise: ``dedup_key`` decides whether it is new (the same key never raises twice)."""

    user_id: object
    dedup_key: str
    severity: str
    details: dict
    alert_type: str = AlertType.RULE
    rule: object = None
    transaction_ids: tuple = field(default_factory=tuple)
    note: str = ""


def dedup_key(*parts) -> str:
    """A stable key of what makes an alert the same alert (rule and hit, user and PEP name, ...)."""
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()


def _chunks(items: list, size: int = CHUNK):
    for start in range(0, len(items), size):
        yield items[start : start + size]


@transaction.atomic
def alert_raise_many(*, alerts: Iterable[NewAlert], actor=None) -> list[Alert]:
    """Raise the alerts whose key is new; returns those created (a re-run creates none).

    Each new alert starts OPEN with its transactions linked, one history row
    ("raised") and one audit entry. Safe against a concurrent run inserting
    the same key: the database's unique key decides, and only rows this call
    inserted are linked and recorded.
    """
    by_key = {spec.dedup_key: spec for spec in alerts}
    if not by_key:
        return []
    known: set[str] = set()
    for chunk in _chunks(list(by_key)):
        known.update(Alert.objects.filter(dedup_key__in=chunk).values_list("dedup_key", flat=True))
    fresh = [
        Alert(
            alert_type=spec.alert_type,
            rule=spec.rule,
            rule_version=getattr(spec.rule, "version", None),
            user_id=spec.user_id,
            severity=spec.severity,
            status=AlertStatus.OPEN,
            dedup_key=key,
            details=spec.details,
        )
        for key, spec in by_key.items()
        if key not in known
    ]
    if not fresh:
        return []
    Alert.objects.bulk_create(fresh, batch_size=CHUNK, ignore_conflicts=True)
    ours: set = set()
    for chunk in _chunks([a.pk for a in fresh]):
        ours.update(Alert.objects.filter(pk__in=chunk).values_list("pk", flat=True))
    created = [a for a in fresh if a.pk in ours]
    _link_transactions([(a.pk, tx_id) for a in created for tx_id in dict.fromkeys(by_key[a.dedup_key].transaction_ids)])
    AlertEvent.objects.bulk_create(
        [
            AlertEvent(alert=a, from_status="", to_status=AlertStatus.OPEN, actor=actor, note=by_key[a.dedup_key].note)
            for a in created
        ],
        batch_size=CHUNK,
    )
    audit_record_many(
        [
            audit_entry(
                actor=actor,
                action="alert.raise",
                object_type="alert",
                object_id=a.pk,
                changes={"alert_type": a.alert_type, "severity": a.severity, "user_id": str(a.user_id)},
            )
            for a in created
        ]
    )
    return created


def _link_transactions(pairs: list[tuple]) -> None:
    """Insert (alert, transaction) links: one unnest() statement per 50,000 on PostgreSQL, bulk_create elsewhere."""
    through = Alert.related_transactions.through
    if connection.vendor != "postgresql":
        links = [through(alert_id=a, transaction_id=t) for a, t in pairs]
        through.objects.bulk_create(links, batch_size=2000, ignore_conflicts=True)
        return
    table = through._meta.db_table
    with connection.cursor() as cursor:
        for start in range(0, len(pairs), 50_000):
            chunk = pairs[start : start + 50_000]
            cursor.execute(
                f"INSERT INTO {table} (alert_id, transaction_id) "
                "SELECT * FROM unnest(%s::uuid[], %s::uuid[]) ON CONFLICT DO NOTHING",
                [[str(a) for a, _ in chunk], [str(t) for _, t in chunk]],
            )


@transaction.atomic
def alert_transition(*, alert: Alert, actor, to_status: str, note: str = "") -> Alert:
    """Move an alert to ``to_status``, recording who, when, from, to and why."""
    if to_status not in AlertStatus.values:
        raise ValidationFailed(
            "Validation error", details={"status": [f"Must be one of {', '.join(AlertStatus.values)}."]}
        )
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ValidationFailed("Validation error", details={"note": [f"At most {NOTE_MAX} characters."]})
    locked = Alert.objects.select_for_update().get(pk=alert.pk)
    method = ALERT_TRANSITIONS.get((locked.status, to_status))
    if method is None:
        raise InvalidTransition(f"Cannot move alert from {locked.status} to {to_status}")
    if to_status in CLOSED_STATES and not note:
        raise ValidationFailed("A note is required to close an alert", details={"note": ["Required when closing."]})
    previous = locked.status
    getattr(locked, method)()
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
    if locked.is_closed:
        raise InvalidTransition("A closed alert cannot be assigned")
    if assignee is not None and not assignee.has_capability("alerts.manage"):
        raise ValidationFailed(
            "This staff member cannot work on alerts", details={"assigned_to": ["Role may not manage alerts."]}
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
