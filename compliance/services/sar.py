"""Writes on SARs: filing a report and moving it through the workflow.

Both run in one database transaction with their audit entry; a transition
also locks the SAR row and appends its history row, so two officers pressing
a button at the same moment cannot both move the same report.
"""

import datetime as dt
import uuid
from collections.abc import Iterable
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django_fsm import ConcurrentTransition

from backoffice.errors import Conflict, Forbidden, NotFound, ValidationFailed, django_validation_details
from backoffice.models import Staff
from backoffice.services import audit_record
from compliance.choices import AlertStatus, SARStatus
from compliance.models import SAR, Alert, SARTransition
from compliance.models.sar import TRANSITIONS, FourEyesRequired, InvalidTransition, require_role
from compliance.sar_export import FORMATS, ExportFormat, render_sar
from compliance.selectors.sar import sar_for_report
from compliance.services.alerts import CLOSED as CLOSED_ALERT_STATUSES
from compliance.services.alerts import alert_transition
from kyc.models import PlatformUser, Transaction

__all__ = ["sar_create", "sar_transition", "sar_export", "FourEyesRequired", "InvalidTransition"]

# Model field -> API field, so a model-level refusal names what the client sent.
_API_NAMES = {
    "entity_user": "entityUserId",
    "suspicious_activity_type": "suspiciousActivityType",
    "activity_description": "activityDescription",
    "date_of_suspicious_activity": "dateOfSuspiciousActivity",
    "amount_involved": "amountInvolved",
    "filed_by": "filedById",
    "reviewed_by": "reviewedBy",
    "approved_by": "approvedBy",
}


def _full_clean(sar: SAR) -> None:
    try:
        # status is left out: clean_fields would assign it, and only transitions may
        sar.full_clean(exclude=["status", "sar_id"] if sar._state.adding else ["status"])
    except ValidationError as exc:
        details = {_API_NAMES.get(k, k): v for k, v in django_validation_details(exc).items()}
        raise ValidationFailed("Validation error", details=details) from None


def _unique_ids(values: Iterable, field: str) -> list[uuid.UUID]:
    seen: dict[uuid.UUID, None] = {}
    for value in values or ():
        try:
            seen.setdefault(value if isinstance(value, uuid.UUID) else uuid.UUID(str(value)), None)
        except ValueError:
            raise ValidationFailed("Validation error", details={field: [f"Not a valid id: {value}"]}) from None
    return list(seen)


def _same_id(value, staff: Staff) -> bool:
    return str(value).strip().lower() == str(staff.pk).lower()


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
    filed_by_id: uuid.UUID | str | None = None,
    sar_id: str | None = None,
) -> SAR:
    """File a new SAR in DRAFT, with the caller as its filer.

    ``filed_by_id`` may only name the caller: a report filed in someone
    else's name would defeat the four-eyes checks that follow. ``sar_id`` is
    normally generated; the demo data passes fixed ones so it stays idempotent.
    """
    if not actor.has_capability("sars.file"):
        raise Forbidden("Your role does not allow filing a SAR")
    if filed_by_id not in (None, "") and not _same_id(filed_by_id, actor):
        raise Forbidden("filedById may only name yourself")
    try:
        user = PlatformUser.objects.filter(pk=uuid.UUID(str(entity_user_id))).first()
    except ValueError:
        user = None
    if user is None:
        raise NotFound("User not found")

    tx_ids = _unique_ids(related_transaction_ids, "relatedTransactionIds")
    transactions = list(Transaction.objects.filter(pk__in=tx_ids, user=user).only("id"))
    missing_tx = sorted(str(i) for i in set(tx_ids) - {t.pk for t in transactions})
    alert_ids = _unique_ids(related_alert_ids, "relatedAlertIds")
    alerts = list(Alert.objects.filter(pk__in=alert_ids).only("id", "status"))
    missing_alerts = sorted(str(i) for i in set(alert_ids) - {a.pk for a in alerts})
    details = {}
    if missing_tx:
        details["relatedTransactionIds"] = [f"Not a transaction of this user: {i}" for i in missing_tx]
    if missing_alerts:
        details["relatedAlertIds"] = [f"No such alert: {i}" for i in missing_alerts]
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
            "sarId": sar.sar_id,
            "entityUserId": str(user.pk),
            "suspiciousActivityType": suspicious_activity_type,
            "amountInvolved": str(sar.amount_involved),
            "relatedTransactionIds": [str(t.pk) for t in transactions],
            "relatedAlertIds": [str(a.pk) for a in alerts],
        },
    )
    # an alert a report cites has been acted on: it leaves the triage queue as CLOSED_SAR_FILED
    for alert in alerts:
        if alert.status not in CLOSED_ALERT_STATUSES:
            alert_transition(
                alert=alert, actor=actor, to_status=AlertStatus.CLOSED_SAR_FILED, note=f"Cited by SAR {sar.sar_id}."
            )
    return sar


@transaction.atomic
def sar_transition(
    *,
    sar: SAR,
    actor: Staff,
    status: str,
    reviewed_by: str | None = None,
    approved_by: str | None = None,
    note: str = "",
    fiu_reference: str = "",
) -> SAR:
    """Move ``sar`` into ``status`` for ``actor``, or raise why not.

    The checks come in the order a client can act on: an unknown status
    (400), a move outside the transition table, whoever asks
    (409 ``INVALID_TRANSITION``), a role that may not make this move (403), a missing
    ``reviewed_by``/``approved_by`` (400), one naming someone other than the
    caller (403), and four eyes (403 ``FOUR_EYES_REQUIRED``, checked by the
    model's transition method itself).
    """
    if status not in SARStatus.values:
        raise ValidationFailed(
            f"Unknown SAR status {status!r}", details={"status": [f"Must be one of {', '.join(SARStatus.values)}."]}
        )
    locked = SAR.objects.select_for_update().get(pk=sar.pk)
    source = locked.status
    method_name = TRANSITIONS.get((source, status))
    if method_name is None:
        raise InvalidTransition(f"Cannot move SAR from {source} to {status}")
    require_role(actor, status)
    for target, field, value in (
        (SARStatus.PENDING_APPROVAL, "reviewedBy", reviewed_by),
        (SARStatus.SUBMITTED, "approvedBy", approved_by),
    ):
        if status != target:
            continue
        if value is None or not str(value).strip():
            raise ValidationFailed(f"{field} is required to move a SAR to {status}", details={field: ["Required."]})
        if not _same_id(value, actor):
            raise Forbidden(f"{field} must be your own id")

    kwargs = {"fiu_reference": fiu_reference.strip()} if status == SARStatus.ACKNOWLEDGED else {}
    getattr(locked, method_name)(actor=actor, **kwargs)
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
        changes={"sarId": locked.sar_id, "from": source, "to": status, "note": note or ""},
    )
    return locked


def sar_export(*, sar: SAR, actor: Staff, fmt: str, via: str = "api") -> tuple[bytes, ExportFormat]:
    """The report as a file in ``fmt`` (html, text, goaml), with an audit entry: who took a copy matters."""
    if fmt not in FORMATS:
        raise ValidationFailed("Invalid format. Use html or text", details={"format": [", ".join(FORMATS)]})
    body = render_sar(sar_for_report(sar=sar), fmt)
    audit_record(
        actor=actor,
        action="sar.export",
        object_type="sar",
        object_id=sar.pk,
        changes={"sarId": sar.sar_id, "format": fmt, "via": via},
    )
    return body, FORMATS[fmt]
