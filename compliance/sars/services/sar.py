"""Writes on SARs: filing a report (from scratch or from an alert), moving it through the workflow, returning
it to DRAFT, exporting it. Editing a draft is ``sar_drafts``; the cited alerts follow through ``sar_alerts``.

Each runs in one database transaction with its audit entry; a transition
also locks the SAR row and appends its history row, so two officers pressing
a button at the same moment cannot both move the same report. Services speak
the domain: the API's rules about request fields (``reviewedBy`` must be the
caller's id, ``filedById`` may only name the caller) live in the API layer.
"""

import datetime as dt
import hashlib
import uuid
from collections.abc import Iterable
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction

from backoffice.errors import Conflict, Forbidden, InvalidTransition, NotFound, ValidationFailed
from backoffice.models import Staff
from backoffice.services import Actor, Move, fsm_move, lock_row, model_clean
from compliance.aml.choices import AlertStatus
from compliance.aml.models.alerts import Alert
from compliance.sars import events, narratives
from compliance.sars.choices import ActivityType, SARStatus
from compliance.sars.errors import GoamlInvalid
from compliance.sars.export import FORMATS, ExportFormat, render_sar
from compliance.sars.goaml import check_report, render_goaml
from compliance.sars.models.sar import RETURNS, SAR, TRANSITIONS, SARFiledExport, SARNarrativeVersion, SARTransition
from compliance.sars.selectors.sar import sar_for_report
from compliance.sars.services.sar_alerts import alerts_close_for_sar, alerts_escalate_for_sar, sars_in_progress_citing
from kyc.models import PlatformUser, Transaction
from kyc.services import user_risk_refresh

__all__ = [
    "sar_create",
    "sar_create_from_alert",
    "sar_transition",
    "sar_return",
    "sar_export",
    "sar_fiu_response",
    "sar_correct",
]
REASON_MAX = 5000
# The FIU's rejection: not a row of the status endpoint's table (``TRANSITIONS``), its own action with the reason.
FIU_REJECTION: dict[tuple[str, str], str] = {(SARStatus.SUBMITTED, SARStatus.CLOSED): "reject_by_fiu"}


def clean_or_refuse(sar: SAR) -> None:
    # status is left out: clean_fields would assign it, and only transitions may
    model_clean(sar, exclude=["status", "sar_id"] if sar._state.adding else ["status"])


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


def resolve_evidence(
    *, user: PlatformUser, related_transaction_ids: Iterable, related_alert_ids: Iterable
) -> tuple[list[Transaction], list[Alert]]:
    """The transactions (they must be ``user``'s) and alerts a report cites, or one 400 naming the unknown ids."""
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
    return transactions, alerts


def narrative_version_add(*, sar: SAR, author: Actor) -> SARNarrativeVersion:
    """Keep ``sar``'s current narrative as its next version (1 for a new report)."""
    last = sar.narrative_versions.order_by("-number").values_list("number", flat=True).first() or 0
    return SARNarrativeVersion.objects.create(sar=sar, number=last + 1, text=sar.activity_description, author=author)


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

    The transactions must be the subject's; every cited open alert is
    ESCALATED ("SAR in progress") until the report is submitted. The
    narrative is kept as version 1. ``sar_id`` is normally generated; the demo
    data passes fixed ones so it stays idempotent.
    """
    if not actor.has_capability("sars.file"):
        raise Forbidden("Your role does not allow filing a SAR")
    user = _lock_subject(entity_user_id)

    transactions, alerts = resolve_evidence(
        user=user, related_transaction_ids=related_transaction_ids, related_alert_ids=related_alert_ids
    )
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
    clean_or_refuse(sar)
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
    narrative_version_add(sar=sar, author=actor)
    events.sar_created(
        actor=actor,
        sar=sar,
        changes={
            "entity_user_id": str(user.pk),
            "suspicious_activity_type": suspicious_activity_type,
            "amount_involved": str(sar.amount_involved),
            "related_transaction_ids": [str(t.pk) for t in transactions],
            "related_alert_ids": [str(a.pk) for a in alerts],
        },
    )
    alerts_escalate_for_sar(alerts=alerts, sar=sar, actor=actor)
    # a SAR on file is a fact of the subject's risk score
    user_risk_refresh(user_id=user.pk, reason=f"SAR {sar.sar_id} opened", actor=actor)
    return sar


# The SAR activity type an alert most likely supports, by the rule type that raised it.
ACTIVITY_BY_RULE_TYPE = {
    "structuring": ActivityType.STRUCTURING,
    "threshold": ActivityType.LARGE_CASH,
    "regulatory_reporting": ActivityType.LARGE_CASH,
    "cft_related": ActivityType.TERRORIST_FINANCING,
    "pep_related": ActivityType.MONEY_LAUNDERING,
}


def _alert_facts(alert: Alert, txs: list[Transaction]) -> dict[str, str]:
    """What an alert already answers of the narrative's questions (who, what, when, where), in plain words."""
    user = alert.user
    who = f"{user.full_name}, customer since {user.created_at:%Y-%m-%d}" + (
        f", occupation {user.occupation}" if user.occupation else ""
    )
    source = f"{alert.rule.rule_id} ({alert.rule.name})" if alert.rule else alert.get_alert_type_display()
    facts = {"who": who + "."}
    if txs:
        total = sum((t.amount for t in txs), Decimal("0.00"))
        facts["what"] = (
            f"{len(txs)} transaction(s) totalling SZL {total:,.2f}, flagged by AML alert {source}, "
            f"severity {alert.get_severity_display().lower()}."
        )
        first, last = txs[0].created_at.astimezone(dt.UTC), txs[-1].created_at.astimezone(dt.UTC)
        facts["when"] = f"From {first:%Y-%m-%d %H:%M} to {last:%Y-%m-%d %H:%M} UTC."
        channels = sorted({t.get_channel_display() for t in txs})
        places = sorted({p for t in txs for p in (t.region, t.country) if p})
        facts["where"] = "Channels: " + ", ".join(channels) + (f"; places: {', '.join(places)}." if places else ".")
    return facts


@transaction.atomic
def sar_create_from_alert(*, alert: Alert, actor: Staff) -> SAR:
    """Draft a SAR from an alert: its subject, its transactions and their total, the alert cited and escalated.

    The narrative is the activity type's template with what the alert already
    tells filled in (who, what, when, where) and the rest left as prompts for
    the officer. One transaction: either the report exists and the alert is
    escalated, or neither changed. A closed alert, or one a report in
    progress already cites, files nothing (409).
    """
    # the subject first, then the alert: the order a purge takes them in (user row, then its alerts)
    _lock_subject(Alert.objects.filter(pk=alert.pk).values_list("user_id", flat=True).first())
    locked = Alert.objects.select_for_update(of=("self",)).select_related("rule", "user").get(pk=alert.pk)
    if locked.is_closed:
        raise InvalidTransition(f"Cannot move alert from {locked.status} to {AlertStatus.CLOSED_SAR_FILED}")
    in_progress = sars_in_progress_citing(locked)
    if in_progress:
        raise Conflict(f"This alert is already cited by {in_progress[0].sar_id}, which is in progress")
    txs = list(locked.related_transactions.order_by("created_at", "id"))
    activity_type = ACTIVITY_BY_RULE_TYPE.get(getattr(locked.rule, "rule_type", ""), ActivityType.UNUSUAL_PATTERN)
    return sar_create(
        actor=actor,
        entity_user_id=locked.user_id,
        suspicious_activity_type=activity_type,
        activity_description=narratives.template(activity_type, _alert_facts(locked, txs)),
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
    kwargs = {"fiu_reference": fiu_reference.strip()} if status == SARStatus.ACKNOWLEDGED else {}
    submitting = status == SARStatus.SUBMITTED

    def on_submission(move: Move[SAR]) -> None:
        if submitting:
            _refuse_an_invalid_report(move.instance)
            alerts_close_for_sar(sar=move.instance, actor=actor)

    def event(move: Move[SAR]) -> None:
        # frozen after the history row: the filed copies carry the filing itself in their history
        events.sar_moved(move, filed_sha256=_store_filed_exports(move.instance) if submitting else None)

    move = fsm_move(
        sar,
        to=status,
        actor=actor,
        note=note or "",
        transitions=TRANSITIONS,
        label="SAR",
        check=lambda move: move.instance.check_move(actor=actor, target=move.target),
        clean=True,
        after_save=on_submission,
        history=SARTransition,
        event=event,
        **kwargs,
    )
    return move.instance


def _store_filed_exports(sar: SAR) -> str:
    """Freeze the report as filed: every export format rendered now (history with the filing, no DRAFT marker),
    stored with its sha256; the goAML XML's hash goes on the SAR. Returns that hash."""
    report = sar_for_report(sar=sar)
    for fmt in FORMATS:
        body = render_sar(report, fmt)
        SARFiledExport.objects.create(sar=sar, format=fmt, content=body, sha256=hashlib.sha256(body).hexdigest())
        if fmt == "goaml":
            sar.filed_sha256 = hashlib.sha256(body).hexdigest()
    SAR.objects.filter(pk=sar.pk).update(filed_sha256=sar.filed_sha256)
    return sar.filed_sha256


def _refuse_an_invalid_report(sar: SAR) -> None:
    """A report the FIU would refuse is not submitted; raising here undoes the move, the transaction being atomic.

    Without our reporting-entity id (production with ``GOAML_RENTITY_ID`` unset) the report's ``rentity_id``
    is empty. With the unit's XSD configured, the report as the FIU will receive it (approved: no DRAFT
    marker) must validate."""
    if settings.GOAML_RENTITY_ID is None:
        raise GoamlInvalid(
            "GOAML_RENTITY_ID is not set: the goAML report would carry no reporting-entity id; the SAR was not "
            "submitted",
            details={"report": ["rentity_id is empty: set GOAML_RENTITY_ID to the id the FIU gave the institution"]},
        )
    if not settings.GOAML_SCHEMA_PATH:
        return
    check = check_report(render_goaml(sar_for_report(sar=sar)))
    if check.errors:
        raise GoamlInvalid(
            f"The goAML report does not validate against {check.schema_name}; the SAR was not submitted",
            details={"report": check.errors},
        )


@transaction.atomic
def sar_return(*, sar: SAR, actor: Staff, reason: str) -> SAR:
    """Send ``sar`` back to DRAFT from review or approval, with the reason, which the history keeps.

    Refused, in this order: from a state with no return (409
    ``INVALID_TRANSITION``), beyond the role (403: a compliance officer returns
    from PENDING_REVIEW, an MLRO also from PENDING_APPROVAL), without a reason
    (400), by the filer (403 ``FOUR_EYES_REQUIRED``). The review no longer
    stands; the cited alerts stay ESCALATED.
    """
    reason = (reason or "").strip()

    def check(move: Move[SAR]) -> None:
        move.instance.check_return(actor=actor)
        if not reason:
            raise ValidationFailed("A reason is required to return a SAR", details={"reason": ["Required."]})
        if len(reason) > REASON_MAX:
            raise ValidationFailed("Validation error", details={"reason": [f"At most {REASON_MAX} characters."]})

    move = fsm_move(
        sar,
        to=SARStatus.DRAFT,
        actor=actor,
        note=reason,
        transitions=RETURNS,
        label="SAR",
        check=check,
        clean=True,
        history=SARTransition,
        event=events.sar_returned,
    )
    return move.instance


def sar_filed_export(*, sar: SAR, fmt: str) -> bytes | None:
    """The bytes of ``sar`` in ``fmt`` as filed with the FIU, or None while it is not filed.

    A report filed before filed copies were kept has none stored: it is rendered with the evidence as it stood
    when it was filed (nothing added after ``submitted_at``), which is what was filed.
    """
    if sar.in_progress:
        return None
    stored = SARFiledExport.objects.filter(sar=sar, format=fmt).values_list("content", "sha256").first()
    if stored is None:
        return render_sar(sar_for_report(sar=sar, as_of=sar.submitted_at), fmt)
    content, sha256 = bytes(stored[0]), stored[1]
    if hashlib.sha256(content).hexdigest() != sha256:
        raise Conflict(f"The filed copy of {sar.sar_id} ({fmt}) does not match its recorded sha256")
    return content


def sar_export(*, sar: SAR, actor: Staff, fmt: str, via: str = "api") -> tuple[bytes, ExportFormat]:
    """The report as a file in ``fmt`` (one of ``FORMATS``), with an audit entry: who took a copy matters.

    Once filed (SUBMITTED and after) it is the copy stored at filing, byte for byte (``sar_filed_export``);
    evidence added later never changes it.
    """
    if fmt not in FORMATS:
        raise ValidationFailed(f"Unknown export format {fmt!r}", details={"format": [", ".join(FORMATS)]})
    filed = sar_filed_export(sar=sar, fmt=fmt)
    body = filed if filed is not None else render_sar(sar_for_report(sar=sar), fmt)
    events.sar_exported(
        actor=actor, sar=sar, fmt=fmt, via=via, filed_sha256=hashlib.sha256(body).hexdigest() if filed else None
    )
    return body, FORMATS[fmt]


def sar_check_fiu_response(*, sar: SAR, actor: Staff) -> None:
    """Refuse before the body is read: a report not SUBMITTED (409, whoever asks), a role that does not file (403)."""
    if sar.status != SARStatus.SUBMITTED:
        raise InvalidTransition(f"Cannot record the FIU's answer for a SAR in {sar.status}")
    if not actor.has_capability("sars.approve"):
        raise Forbidden("Your role does not allow recording the FIU's answer")


@transaction.atomic
def sar_fiu_response(*, sar: SAR, actor: Staff, accepted: bool, reason: str = "", fiu_reference: str = "") -> SAR:
    """Record the unit's answer to a SUBMITTED SAR.

    Accepted: the report is ACKNOWLEDGED (the table's own move, with the
    unit's reference). Rejected: the reason is required and kept, and the
    report is CLOSED as rejected; ``sar_correct`` files its correction, which
    names it.
    """
    locked = lock_row(sar)
    sar_check_fiu_response(sar=locked, actor=actor)
    reason = (reason or "").strip()
    fiu_reference = (fiu_reference or "").strip()
    if not accepted and not reason:
        raise ValidationFailed("A reason is required when the FIU rejected the SAR", details={"reason": ["Required."]})
    if len(reason) > REASON_MAX:
        raise ValidationFailed("Validation error", details={"reason": [f"At most {REASON_MAX} characters."]})
    if accepted:
        return sar_transition(
            sar=locked, actor=actor, status=SARStatus.ACKNOWLEDGED, note=reason, fiu_reference=fiu_reference
        )

    def keep_reference(move: Move[SAR]) -> None:
        if fiu_reference:
            move.instance.fiu_reference = fiu_reference

    move = fsm_move(
        locked,
        to=SARStatus.CLOSED,
        actor=actor,
        note=f"Rejected by the FIU: {reason}",
        lock=False,  # locked above: the checks before the body's needed the row
        transitions=FIU_REJECTION,
        label="SAR",
        clean=True,
        before_save=keep_reference,
        history=SARTransition,
        event=lambda move: events.sar_fiu_rejected(move, reason=reason),
        reason=reason,
    )
    return move.instance


@transaction.atomic
def sar_correct(*, sar: SAR, actor: Staff) -> SAR:
    """File a correction of a SAR the FIU rejected: a new DRAFT with the same subject, facts and evidence,
    naming the rejected report (``corrects``), to be corrected and go through review and approval again.

    Refused (409) for a report the unit did not reject, or one a correction in progress (or filed and not
    rejected) already replaces.
    """
    locked = lock_row(sar)
    if locked.fiu_outcome != "REJECTED":
        raise InvalidTransition(f"Only a SAR the FIU rejected can be corrected; {locked.sar_id} was not")
    standing = locked.corrections.exclude(fiu_outcome="REJECTED").first()
    if standing is not None:
        raise Conflict(f"{locked.sar_id} is already corrected by {standing.sar_id}")
    correction = sar_create(
        actor=actor,
        entity_user_id=locked.entity_user_id,
        suspicious_activity_type=locked.suspicious_activity_type,
        activity_description=locked.activity_description,
        date_of_suspicious_activity=locked.date_of_suspicious_activity,
        amount_involved=locked.amount_involved,
        related_transaction_ids=list(locked.related_transactions.values_list("pk", flat=True)),
        related_alert_ids=[],  # the alerts were closed with the first filing; the correction cites the report
    )
    correction.corrects = locked
    correction.save(update_fields=["corrects", "updated_at"])
    events.sar_corrected(actor=actor, correction=correction, rejected=locked)
    return correction
