"""Writes on SARs: filing a report (from scratch or from an alert), moving it through the workflow, exporting it.

Each runs in one database transaction with its audit entry; a transition
also locks the SAR row and appends its history row, so two officers pressing
a button at the same moment cannot both move the same report. Services speak
the domain: the API's rules about request fields (``reviewedBy`` must be the
caller's id, ``filedById`` may only name the caller) live in the API layer.
"""

import datetime as dt
import uuid
from collections.abc import Iterable
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django_fsm import ConcurrentTransition

from backoffice.errors import (
    Conflict,
    Forbidden,
    InvalidTransition,
    NotFound,
    ValidationFailed,
    django_validation_details,
)
from backoffice.models import Staff
from backoffice.services import audit_record
from compliance.choices import ActivityType, AlertStatus, SARStatus
from compliance.models import SAR, Alert, SARTransition
from compliance.models.sar import TRANSITIONS
from compliance.sar_export import FORMATS, ExportFormat, render_sar
from compliance.selectors.sar import sar_for_report
from compliance.services.alerts import alert_transition
from kyc.models import PlatformUser, Transaction

__all__ = ["sar_create", "sar_create_from_alert", "sar_transition", "sar_export"]


def _full_clean(sar: SAR) -> None:
    try:
        # status is left out: clean_fields would assign it, and only transitions may
        sar.full_clean(exclude=["status", "sar_id"] if sar._state.adding else ["status"])
    except ValidationError as exc:
        raise ValidationFailed("Validation error", details=django_validation_details(exc)) from None


def _unique_ids(values: Iterable, field: str) -> list[uuid.UUID]:
    seen: dict[uuid.UUID, None] = {}
    for value in values or ():
        try:
            seen.setdefault(value if isinstance(value, uuid.UUID) else uuid.UUID(str(value)), None)
        except ValueError:
            raise ValidationFailed("Validation error", details={field: [f"Not a valid id: {value}"]}) from None
    return list(seen)


def _lock_subject(user_id) -> PlatformUser:
    """The subject's row, locked until the report is saved, or 404.

    A purge of the same user locks that row too, so the two queue: a purge that got there first has
    deleted the row by the time this lock is granted (404, never a foreign-key error at commit); a
    report that got there first exists when the purge looks for one (409 RETENTION_HOLD).
    """
    try:
        user = PlatformUser.objects.select_for_update().filter(pk=uuid.UUID(str(user_id))).first()
    except ValueError:
        user = None
    if user is None:
        raise NotFound("User not found")
    return user


@transaction.atomic
def sar_create(
    *,
    actor: Staff,
    entity_user_id: uuid.UUID | str,
    suspicious_activity_type: str,
    activity_description: str,
    date_of_suspicious_activity: dt.date,
    amount_involved: Decimal,
    related_transaction_ids: Iterable = (),
    related_alert_ids: Iterable = (),
    sar_id: str | None = None,
) -> SAR:
    """File a new SAR in DRAFT with ``actor`` as its filer.

    The transactions must be the subject's; every cited alert leaves the
    triage queue as CLOSED_SAR_FILED. ``sar_id`` is normally generated; the
    demo data passes fixed ones so it stays idempotent.
    """
    if not actor.has_capability("sars.file"):
        raise Forbidden("Your role does not allow filing a SAR")
    user = _lock_subject(entity_user_id)

    tx_ids = _unique_ids(related_transaction_ids, "related_transaction_ids")
    transactions = list(Transaction.objects.filter(pk__in=tx_ids, user=user).only("id"))
    missing_tx = sorted(str(i) for i in set(tx_ids) - {t.pk for t in transactions})
    alert_ids = _unique_ids(related_alert_ids, "related_alert_ids")
    alerts = list(Alert.objects.filter(pk__in=alert_ids).only("id", "status"))
    missing_alerts = sorted(str(i) for i in set(alert_ids) - {a.pk for a in alerts})
    details = {}
    if missing_tx:
        details["related_transaction_ids"] = [f"Not a transaction of this user: {i}" for i in missing_tx]
    if missing_alerts:
        details["related_alert_ids"] = [f"No such alert: {i}" for i in missing_alerts]
    if details:
        raise ValidationFailed("Validation error", details=details)

    sar = SAR(
        entity_user=user,
        suspicious_activity_type=suspicious_activity_type,
        activity_description=activity_description,
        date_of_suspicious_activity=date_of_suspicious_activity,
        amount_involved=Decimal(amount_involved),
        filed_by=actor,
    )
    if sar_id:
        sar.sar_id = sar_id
    _full_clean(sar)
    # The random suffix makes a clash all but impossible; all but is not never.
    for attempt in range(3):
        try:
            with transaction.atomic():
                sar.save(force_insert=True)
            break
        except IntegrityError:
            if sar_id or attempt == 2 or not SAR.objects.filter(sar_id=sar.sar_id).exists():
                raise
            sar.sar_id = SAR._meta.get_field("sar_id").get_default()
    sar.related_transactions.set(transactions)
    sar.related_alerts.set(alerts)
    audit_record(
        actor=actor,
        action="sar.create",
        object_type="sar",
        object_id=sar.pk,
        changes={
            "sar_id": sar.sar_id,
            "entity_user_id": str(user.pk),
            "suspicious_activity_type": suspicious_activity_type,
            "amount_involved": str(sar.amount_involved),
            "related_transaction_ids": [str(t.pk) for t in transactions],
            "related_alert_ids": [str(a.pk) for a in alerts],
        },
    )
    # an alert a report cites has been acted on: it leaves the triage queue as CLOSED_SAR_FILED
    for alert in alerts:
        if not alert.is_closed:
            alert_transition(
                alert=alert, actor=actor, to_status=AlertStatus.CLOSED_SAR_FILED, note=f"Cited by SAR {sar.sar_id}."
            )
    return sar


# The SAR activity type an alert most likely supports, by the rule type that raised it.
ACTIVITY_BY_RULE_TYPE = {
    "structuring": ActivityType.STRUCTURING,
    "threshold": ActivityType.LARGE_CASH,
    "regulatory_reporting": ActivityType.LARGE_CASH,
    "cft_related": ActivityType.TERRORIST_FINANCING,
    "pep_related": ActivityType.MONEY_LAUNDERING,
}


@transaction.atomic
def sar_create_from_alert(*, alert: Alert, actor: Staff) -> SAR:
    """Draft a SAR from an alert: its subject, its transactions and their total, the alert cited (and so closed).

    One transaction: either the report exists and the alert says so, or
    neither changed. The SAR starts in DRAFT; the officer completes its
    description and moves it through the workflow.
    """
    # the subject first, then the alert: the order a purge takes them in (user row, then its alerts)
    _lock_subject(Alert.objects.filter(pk=alert.pk).values_list("user_id", flat=True).first())
    locked = Alert.objects.select_for_update(of=("self",)).select_related("rule").get(pk=alert.pk)
    if locked.is_closed:
        raise InvalidTransition(f"Cannot move alert from {locked.status} to {AlertStatus.CLOSED_SAR_FILED}")
    txs = list(locked.related_transactions.order_by("created_at"))
    source = locked.rule.name if locked.rule else locked.get_alert_type_display()
    rule_ref = locked.rule.rule_id if locked.rule else locked.alert_type
    return sar_create(
        actor=actor,
        entity_user_id=locked.user_id,
        suspicious_activity_type=ACTIVITY_BY_RULE_TYPE.get(
            getattr(locked.rule, "rule_type", ""), ActivityType.UNUSUAL_PATTERN
        ),
        activity_description=(
            f"Raised by AML alert {locked.pk} ({rule_ref}: {source}, severity {locked.severity}) "
            f"on {len(txs)} transaction(s)."
        ),
        date_of_suspicious_activity=max((t.created_at for t in txs), default=locked.created_at)
        .astimezone(dt.UTC)
        .date(),
        amount_involved=sum((t.amount for t in txs), Decimal("0.00")),
        related_transaction_ids=[t.pk for t in txs],
        related_alert_ids=[locked.pk],
    )


@transaction.atomic
def sar_transition(*, sar: SAR, actor: Staff, status: str, note: str = "", fiu_reference: str = "") -> SAR:
    """Move ``sar`` into ``status`` for ``actor``, or raise why not.

    Under the row lock: a move outside the transition table, whoever asks
    (409 ``INVALID_TRANSITION``), a role that may not make this move (403),
    and four eyes (403 ``FOUR_EYES_REQUIRED``, the model's transition method's
    own check). The actor becomes the reviewer or approver where the move
    names one.
    """
    if status not in SARStatus.values:
        raise ValidationFailed(
            f"Unknown SAR status {status!r}", details={"status": [f"Must be one of {', '.join(SARStatus.values)}."]}
        )
    locked = SAR.objects.select_for_update().get(pk=sar.pk)
    source = locked.status
    locked.check_move(actor=actor, target=status)
    kwargs = {"fiu_reference": fiu_reference.strip()} if status == SARStatus.ACKNOWLEDGED else {}
    getattr(locked, TRANSITIONS[(source, status)])(actor=actor, **kwargs)
    _full_clean(locked)
    try:
        locked.save()
    except ConcurrentTransition:
        # the row lock makes this unreachable through this function; a writer outside it is not so polite
        raise Conflict("The SAR was moved by someone else meanwhile; reload it and try again") from None
    SARTransition.objects.create(sar=locked, from_status=source, to_status=status, actor=actor, note=note or "")
    audit_record(
        actor=actor,
        action="sar.transition",
        object_type="sar",
        object_id=locked.pk,
        changes={"sar_id": locked.sar_id, "from": source, "to": status, "note": note or ""},
    )
    return locked


def sar_export(*, sar: SAR, actor: Staff, fmt: str, via: str = "api") -> tuple[bytes, ExportFormat]:
    """The report as a file in ``fmt`` (one of ``FORMATS``), with an audit entry: who took a copy matters."""
    if fmt not in FORMATS:
        raise ValidationFailed(f"Unknown export format {fmt!r}", details={"format": [", ".join(FORMATS)]})
    body = render_sar(sar_for_report(sar=sar), fmt)
    audit_record(
        actor=actor,
        action="sar.export",
        object_type="sar",
        object_id=sar.pk,
        changes={"sar_id": sar.sar_id, "format": fmt, "via": via},
    )
    return body, FORMATS[fmt]
