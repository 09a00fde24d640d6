"""Writes on AML alerts: raising them, status moves with a note (and a reason code), assignment, bulk triage.

Every write records an AlertEvent (the alert's history) and an audit entry,
whoever makes it: an officer in the admin site or the API, or the AML engine
raising alerts in bulk. The moves themselves are the ``Alert`` model's
declared transitions; closing needs a note, the officer's reason, which an
audit will ask for.
"""

import hashlib
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from django.db import connection, transaction

from backoffice.errors import Conflict, DomainError, InvalidTransition, ValidationFailed
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.models import Staff
from backoffice.services import Actor, Move, audit_batch, fsm_move, history_record, history_record_many, lock_row
from compliance.aml import events
from compliance.aml.choices import AlertStatus, AlertType, CloseReason
from compliance.aml.models.alerts import ALERT_TRANSITIONS, CLOSED_STATES, OPEN_STATES, Alert, AlertEvent
from kyc.choices import VerificationStatus
from kyc.models import PlatformUser
from kyc.services import user_risk_refresh_many

CHUNK = 500
# the decisions that close an alert as a true positive (the services that make them pass the code)
TRUE_POSITIVE_REASONS = (CloseReason.PEP_MATCH_CONFIRMED, CloseReason.HELD_TRANSACTION_REJECTED)


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


def _source(alert: Alert) -> str:
    if alert.alert_type == AlertType.RULE:
        return f"rule {alert.details.get('rule_id') or getattr(alert.rule, 'rule_id', '') or 'unknown'}"
    return AlertType(alert.alert_type).label.lower()


def risk_follow_alerts(*, alerts: Iterable[Alert], actor: Actor = None) -> None:
    """The users of newly raised alerts: an open alert is a fact of their risk score (one refresh per reason)."""
    sources: dict = {}
    for alert in alerts:
        sources.setdefault(alert.user_id, set()).add(_source(alert))
    by_reason: dict[str, list] = {}
    for user_id, names in sources.items():
        by_reason.setdefault(f"Alert raised ({', '.join(sorted(names))})", []).append(user_id)
    for reason, user_ids in by_reason.items():
        user_risk_refresh_many(user_ids=user_ids, reason=reason, actor=actor)


@transaction.atomic
def alert_raise_many(*, alerts: Iterable[NewAlert], actor: Actor = None, follow_risk: bool = True) -> list[Alert]:
    """Raise the alerts whose key is new; returns those created (a re-run creates none).

    Each new alert starts OPEN with its transactions linked, one history row
    ("raised") and one audit entry. Safe against a concurrent run inserting
    the same key: the database's unique key decides, and only rows this call
    inserted are linked and recorded. Their users' risk scores follow
    (``follow_risk=False``: the caller refreshes them itself, with more facts).
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
    history_record_many(
        ((a, "", AlertStatus.OPEN, by_key[a.dedup_key].note) for a in created),
        history=AlertEvent,
        actor=actor,
        batch_size=CHUNK,
    )
    if follow_risk:
        # the users' rows before the audit chain's head, the order every wallet write takes them in (the intake
        # locks its wallet, then appends its entry): raised the other way round, an alert on a customer paying
        # at that moment deadlocked with the payment (PostgreSQL broke it after a second, failing one of them)
        risk_follow_alerts(alerts=created, actor=actor)
    with audit_batch():
        for alert in created:
            events.alert_raised(actor=actor, alert=alert)
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


def _clean_note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationFailed("Validation error", details={"note": [f"At most {NOTE_MAX_LENGTH} characters."]})
    return note


def _check_reason_code(reason_code: str) -> str:
    reason_code = (reason_code or "").strip()
    if reason_code and reason_code not in CloseReason.values:
        raise ValidationFailed(
            "Invalid reason code", details={"reason_code": [f"Must be one of {', '.join(CloseReason.values)}."]}
        )
    return reason_code


@transaction.atomic
def alert_transition(*, alert: Alert, actor: Actor, to_status: str, note: str = "", reason_code: str = "") -> Alert:
    """Move an alert to ``to_status``, recording who, when, from, to and why.

    Closing needs a note; closing as a false positive also needs a reason
    code (``CloseReason``); reopening a closed alert needs a note.
    """
    if to_status not in AlertStatus.values:
        raise ValidationFailed(
            "Validation error", details={"status": [f"Must be one of {', '.join(AlertStatus.values)}."]}
        )
    note = _clean_note(note)
    reason_code = _check_reason_code(reason_code)
    # the customer first, then the alert: the order of every writer that holds both (a SAR being filed locks its
    # subject and escalates the alerts it cites; a move here may refresh the customer's risk score), so two of
    # them can never wait on each other
    list(PlatformUser.objects.select_for_update().filter(pk=alert.user_id).values_list("pk", flat=True))

    def check(move: Move[Alert]) -> None:
        # after the table (409 first, whoever asks), before anything moves: what this move needs
        locked = move.instance
        if to_status in CLOSED_STATES and not note:
            raise ValidationFailed("A note is required to close an alert", details={"note": ["Required when closing."]})
        if to_status == AlertStatus.CLOSED_FALSE_POSITIVE and not reason_code:
            raise ValidationFailed(
                "A reason code is required to close an alert as a false positive",
                details={"reason_code": ["Required when closing as a false positive."]},
            )
        if to_status == AlertStatus.CLOSED_TRUE_POSITIVE and reason_code not in TRUE_POSITIVE_REASONS:
            # a service's decision (a confirmed PEP match, a rejected held transaction), never a free choice
            raise ValidationFailed(
                "An alert closes as a true positive only through the decision it asked for",
                details={"status": ["Confirm the match or reject the held transaction instead."]},
            )
        if (
            locked.alert_type == AlertType.DUPLICATE_IDENTITY
            and to_status == AlertStatus.CLOSED_FALSE_POSITIVE
            and locked.user is not None
            and locked.user.verification_status == VerificationStatus.PENDING
        ):
            # the identity check waiting for review decides it (compliance.aml.services.identity); a SAR may
            # still be filed
            raise Conflict(
                "This duplicate identity is decided by the user's identity check, which is waiting for review: "
                "decide the check (approving against duplicates needs two people and a reason)"
            )
        if move.source in CLOSED_STATES and not note:
            raise ValidationFailed(
                "A note is required to reopen an alert", details={"note": ["Required when reopening."]}
            )

    # the reason code belongs to a close as a false or a true positive only
    false_positive = to_status in (AlertStatus.CLOSED_FALSE_POSITIVE, AlertStatus.CLOSED_TRUE_POSITIVE)
    reason_code = reason_code if false_positive else ""
    move = fsm_move(
        alert,
        to=to_status,
        actor=actor,
        note=note,
        transitions=ALERT_TRANSITIONS,
        label="alert",
        check=check,
        update_fields=["closed_at", "close_reason_code"],
        history=AlertEvent,
        history_fields={"reason_code": reason_code},
        event=lambda move: events.alert_moved(move, reason_code=reason_code),
        **({"reason_code": reason_code} if false_positive else {}),
    )
    locked, previous = move.instance, move.source
    reopening = previous in CLOSED_STATES
    if (previous in OPEN_STATES) != (to_status in OPEN_STATES):  # an open alert is a fact of the risk score
        label = AlertStatus(to_status).label.lower()
        reason = f"Alert {str(locked.pk)[:8]} ({_source(locked)}) {'reopened' if reopening else label}"
        user_risk_refresh_many(user_ids=[locked.user_id], reason=reason, actor=actor)
    return locked


def assignee_from_id(staff_id) -> Staff | None:
    """The staff member an alert may be given to: active, and allowed to work on alerts (None: nobody)."""
    if staff_id is None:
        return None
    staff = Staff.objects.filter(pk=staff_id, is_active=True).first()
    if staff is None:
        raise ValidationFailed("Unknown or inactive staff member", details={"assignee": ["No active staff member."]})
    if not staff.has_capability("alerts.manage"):
        raise ValidationFailed(
            "This staff member cannot work on alerts", details={"assignee": ["Role may not manage alerts."]}
        )
    return staff


@transaction.atomic
def alert_assign(*, alert: Alert, actor: Actor, assignee: Staff | None) -> Alert:
    """Give an open alert to an officer (``assignee`` None takes it back to the queue)."""
    locked = lock_row(alert)
    if locked.is_closed:
        raise InvalidTransition("A closed alert cannot be assigned")
    if assignee is not None:
        assignee = assignee_from_id(assignee.pk)
    previous = locked.assigned_to
    locked.assigned_to = assignee
    locked.save(update_fields=["assigned_to", "updated_at"])
    note = f"Assigned to {assignee.full_name or assignee.email}" if assignee else "Unassigned"
    # an assignment is a row of the alert's history that leaves its status as it is
    history_record(locked, history=AlertEvent, source=locked.status, target=locked.status, actor=actor, note=note)
    events.alert_assigned(actor=actor, alert=locked, previous=previous, assignee=assignee)
    return locked


class BulkAction(StrEnum):
    ASSIGN = "assign"
    CLOSE_FALSE_POSITIVE = "close_false_positive"


BULK_MAX = 500


@dataclass(frozen=True)
class BulkResult:
    """What a bulk action did: how many alerts changed, and why each of the others did not."""

    updated: int
    errors: list[tuple[str, str]]

    @property
    def failed(self) -> int:
        return len(self.errors)


@transaction.atomic
def alert_bulk(
    *,
    actor: Actor,
    alert_ids: Iterable,
    action: str,
    assignee: Staff | None = None,
    reason_code: str = "",
    note: str = "",
) -> BulkResult:
    """Assign, or close as false positives, many alerts with one reason; each alert succeeds or fails alone.

    The request as a whole is refused (nothing done) when it is malformed:
    an unknown action, more than ``BULK_MAX`` alerts, closing without a note
    or reason code. Otherwise every alert goes through the same service as
    one alert would, in its own savepoint, and a refusal (a closed alert, an
    unknown id) is reported beside the others' success.
    """
    ids = list(dict.fromkeys(str(i) for i in alert_ids))
    if action not in {a.value for a in BulkAction}:
        raise ValidationFailed("Validation error", details={"action": [f"Must be one of {', '.join(BulkAction)}."]})
    if not ids:
        raise ValidationFailed("Validation error", details={"ids": ["Name at least one alert."]})
    if len(ids) > BULK_MAX:
        raise ValidationFailed(f"At most {BULK_MAX} alerts at once", details={"ids": [f"At most {BULK_MAX} ids."]})
    note = _clean_note(note)
    reason_code = _check_reason_code(reason_code)
    if action == BulkAction.CLOSE_FALSE_POSITIVE:
        problems = {}
        if not note:
            problems["note"] = ["Required when closing."]
        if not reason_code:
            problems["reason_code"] = ["Required when closing as a false positive."]
        if problems:
            raise ValidationFailed("A note and a reason code are required to close alerts", details=problems)
    found = Alert.objects.in_bulk([pk for pk in ids if _is_uuid(pk)])
    by_text = {str(pk): alert for pk, alert in found.items()}
    updated, errors = 0, []
    for pk in ids:
        alert = by_text.get(pk)
        if alert is None:
            errors.append((pk, "Alert not found"))
            continue
        try:
            with transaction.atomic():
                if action == BulkAction.ASSIGN:
                    alert_assign(alert=alert, actor=actor, assignee=assignee)
                else:
                    alert_transition(
                        alert=alert,
                        actor=actor,
                        to_status=AlertStatus.CLOSED_FALSE_POSITIVE,
                        note=note,
                        reason_code=reason_code,
                    )
        except DomainError as exc:
            errors.append((pk, exc.message))
        else:
            updated += 1
    events.alerts_triaged(
        actor=actor, action=action, updated=updated, failed=len(errors), assignee=assignee, reason_code=reason_code
    )
    return BulkResult(updated=updated, errors=errors)


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
