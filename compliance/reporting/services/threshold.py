"""Writes on cash threshold reports: opening them as cash is recorded, batching, submitting, the unit's answers.

``threshold_report_for_transaction`` runs on ``kyc.hooks.transaction_recorded``
for every ledger row, inside the ledger's transaction and under the user's row
lock, so whatever path records cash (the intake, the demo, a test) opens the
report (and on ``kyc.hooks.transaction_completed``, for a held row released
later); two cash transactions of one user queue on that lock, and the unique
constraint on (user, day) stops a second report even from a writer that took
no lock. Batches are prepared by compliance staff and submitted by an MLRO or
admin who did not prepare them (four eyes); each write has its audit entry.
"""

import datetime as dt
import io
import uuid
import zipfile
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.db.transaction import atomic
from django.utils import timezone

from backoffice.errors import Forbidden, FourEyesRequired, InvalidTransition, ValidationFailed
from backoffice.models import Staff
from backoffice.services import fsm_move, fsm_move_many, history_record, lock_row
from compliance.aml.choices import RuleType
from compliance.aml.models.rules import AMLRule
from compliance.peps.selectors.pep_exposures import pep_exposures_by_user
from compliance.reporting import events
from compliance.reporting.choices import BatchStatus, FiuOutcome, ThresholdReportStatus
from compliance.reporting.deadlines import ctr_due_at, day_bounds, local_day
from compliance.reporting.errors import NothingToReport
from compliance.reporting.goaml import people_of, render_threshold_report
from compliance.reporting.models import (
    ThresholdReport,
    ThresholdReportBatch,
    ThresholdReportBatchEvent,
    ThresholdReportEvent,
    ThresholdReportFiling,
)
from compliance.reporting.selectors.threshold import batch_for_export
from compliance.sars.errors import GoamlInvalid
from compliance.sars.goaml import check_report
from kyc.choices import Channel, TransactionStatus
from kyc.models import PlatformUser, Transaction

REASON_MAX = 5000
FIU_REFERENCE_MAX = 64


# ------------------------------------------------------------------ opening reports


def reporting_threshold() -> Decimal | None:
    """The lowest ``reportingThreshold`` of the active regulatory_reporting rules; None when none is active."""
    values = []
    for conditions in AMLRule.objects.filter(is_active=True, rule_type=RuleType.REGULATORY_REPORTING).values_list(
        "conditions", flat=True
    ):
        try:
            values.append(Decimal(str(conditions["reportingThreshold"])))
        except (KeyError, TypeError, ArithmeticError):
            continue  # a rule without a valid threshold reports nothing (the rule validation refuses one anyway)
    return min(values) if values else None


def _day_cash(user_id, day: dt.date):
    start, end = day_bounds(day)
    return Transaction.objects.filter(
        user_id=user_id,
        channel=Channel.CASH,
        status=TransactionStatus.COMPLETED,
        created_at__gte=start,
        created_at__lt=end,
    )


def _refresh(report: ThresholdReport, txs) -> None:
    report.transactions.add(*txs)
    report.total = report.transactions.aggregate(total=Sum("amount"))["total"] or Decimal("0.00")
    report.save(update_fields=["total", "updated_at"])


def threshold_report_for_transaction(*, transaction: Transaction, **_ignored) -> ThresholdReport | None:
    """Open (or extend) the user's threshold report for the day of ``transaction``, when it is completed cash.

    A PENDING report of the day takes the transaction in; a report already in
    a batch or filed is left alone (the contract: later cash joins while
    PENDING). Without one, the day's completed cash total is compared with the
    threshold; reaching it opens the report with every cash transaction of the day.
    """
    if transaction.channel != Channel.CASH or transaction.status != TransactionStatus.COMPLETED:
        return None
    day = local_day(transaction.created_at)
    existing = ThresholdReport.objects.select_for_update().filter(user_id=transaction.user_id, day=day).first()
    if existing is not None:
        if existing.status == ThresholdReportStatus.PENDING:
            _refresh(existing, [transaction])
        return existing
    threshold = reporting_threshold()
    if threshold is None:
        return None
    cash = _day_cash(transaction.user_id, day)
    total = cash.aggregate(total=Sum("amount"))["total"] or Decimal("0.00")
    if total < threshold:
        return None
    report = ThresholdReport(
        user_id=transaction.user_id, day=day, total=total, threshold=threshold, due_at=ctr_due_at(day)
    )
    try:
        with atomic():  # a savepoint: the ledger's transaction survives a lost race
            report.save(force_insert=True)
    except IntegrityError:
        # another writer opened the day's report first (one that did not hold the user's row lock): join it
        report = ThresholdReport.objects.select_for_update().get(user_id=transaction.user_id, day=day)
        if report.status == ThresholdReportStatus.PENDING:
            _refresh(report, [transaction])
        return report
    _refresh(report, list(cash))
    # opened by the ledger, not by a person: the system's first history row
    history_record(report, history=ThresholdReportEvent, source="", target=report.status, actor=None)
    return report


# ------------------------------------------------------------------ batches


def _require(actor: Staff, capability: str, what: str) -> None:
    if not actor.has_capability(capability):
        raise Forbidden(f"Your role does not allow {what}")


@transaction.atomic
def threshold_batch_prepare(*, actor: Staff) -> ThresholdReportBatch:
    """Gather every PENDING and REJECTED report into a new PREPARED batch; 409 NOTHING_TO_REPORT when none.

    A REJECTED report's new filing names the rejected one (``resubmits``), and its goAML report says so.
    """
    _require(actor, "ctr.prepare", "preparing threshold-report batches")
    reports = list(
        ThresholdReport.objects.select_for_update()
        .filter(status__in=[ThresholdReportStatus.PENDING, ThresholdReportStatus.REJECTED])
        .order_by("day", "created_at", "id")
    )
    if not reports:
        raise NothingToReport()
    batch = ThresholdReportBatch.objects.create(created_by=actor)
    history_record(batch, history=ThresholdReportBatchEvent, source="", target=batch.status, actor=actor)
    rejected = {
        f.report_id: f
        for f in ThresholdReportFiling.objects.filter(
            report__in=[r for r in reports if r.status == ThresholdReportStatus.REJECTED],
            outcome=FiuOutcome.REJECTED,
            resubmitted_as__isnull=True,
        )
    }
    ThresholdReportFiling.objects.bulk_create(
        [ThresholdReportFiling(batch=batch, report=r, resubmits=rejected.get(r.pk)) for r in reports]
    )
    _reports_move(reports, to=ThresholdReportStatus.BATCHED, actor=actor, update_fields=["batch"], batch=batch)
    events.batch_prepared(actor=actor, batch=batch, reports=reports, resubmitted=list(rejected))
    return batch


@dataclass(frozen=True)
class ReportCheck:
    """One report of a batch: its goAML file name and the schema's errors (empty when valid or unchecked)."""

    report_id: uuid.UUID
    filename: str
    errors: list[str]


def batch_files(batch: ThresholdReportBatch) -> list[tuple[ThresholdReportFiling, str, bytes]]:
    """(filing, file name, goAML XML) of every report in ``batch``."""
    batch = batch_for_export(batch_id=batch.pk)
    filings = list(batch.filings.all())
    peps = pep_exposures_by_user(people_of(filings))  # one lookup for the whole batch
    return [
        (filing, f"CTR-{filing.report.day:%Y%m%d}-{filing.report_id}.xml", render_threshold_report(filing, peps=peps))
        for filing in filings
    ]


def threshold_batch_check(*, batch: ThresholdReportBatch) -> tuple[bool, list[ReportCheck]]:
    """Whether a schema is configured, and each report's errors against it (the admin shows them before submitting)."""
    configured = bool(settings.GOAML_SCHEMA_PATH)
    checks = []
    for filing, name, body in batch_files(batch):
        errors = check_report(body).errors if configured else []
        checks.append(ReportCheck(filing.report_id, name, errors))
    return configured, checks


def threshold_batch_export(*, batch: ThresholdReportBatch, actor: Staff, via: str = "api") -> bytes:
    """The batch as a zip of goAML reports, one per threshold report, with an audit entry."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for _filing, name, body in batch_files(batch):
            archive.writestr(name, body)
    events.batch_exported(actor=actor, batch=batch, via=via)
    return buffer.getvalue()


def batch_check_submit(*, batch: ThresholdReportBatch, actor: Staff) -> None:
    """Refuse, before any body field is read: a batch already submitted (409), a role that does not submit (403),
    the person who prepared it (403 FOUR_EYES_REQUIRED)."""
    if batch.status != BatchStatus.PREPARED:
        raise InvalidTransition(f"Cannot move batch from {batch.status} to {BatchStatus.SUBMITTED}")
    _require(actor, "ctr.submit", "submitting threshold reports")
    if batch.created_by_id == actor.pk:
        raise FourEyesRequired("The person who prepared the batch cannot submit it")


@transaction.atomic
def threshold_batch_submit(*, batch: ThresholdReportBatch, actor: Staff, fiu_reference: str) -> ThresholdReportBatch:
    """Mark ``batch`` and its reports SUBMITTED with the unit's reference; with the unit's XSD configured every
    report must validate first (409 GOAML_INVALID naming each failing report)."""
    locked = lock_row(batch)
    batch_check_submit(batch=locked, actor=actor)
    fiu_reference = (fiu_reference or "").strip()
    if not fiu_reference:
        raise ValidationFailed("fiuReference is required", details={"fiu_reference": ["Required."]})
    if len(fiu_reference) > FIU_REFERENCE_MAX:
        raise ValidationFailed(
            "Validation error", details={"fiu_reference": [f"At most {FIU_REFERENCE_MAX} characters."]}
        )
    configured, checks = threshold_batch_check(batch=locked)
    invalid = {c.filename: c.errors for c in checks if c.errors}
    if configured and invalid:
        raise GoamlInvalid(
            f"{len(invalid)} report(s) of the batch do not validate against the FIU's schema; nothing was submitted",
            details=invalid,
        )
    move = fsm_move(
        locked,
        to=BatchStatus.SUBMITTED,
        actor=actor,
        lock=False,  # locked above, before the checks
        label="batch",
        update_fields=["submitted_by", "submitted_at", "fiu_reference"],
        history=ThresholdReportBatchEvent,
        event=lambda move: events.batch_submitted(actor=actor, batch=move.instance),
        fiu_reference=fiu_reference,
    )
    reports = ThresholdReport.objects.select_for_update().filter(batch=locked, status=ThresholdReportStatus.BATCHED)
    _reports_move(
        list(reports.order_by("day", "created_at", "id")),
        to=ThresholdReportStatus.SUBMITTED,
        actor=actor,
        update_fields=["submitted_at"],
        at=move.instance.submitted_at,
    )
    return move.instance


def _reports_move(reports: list[ThresholdReport], *, to: str, actor: Staff, update_fields=(), **kwargs) -> None:
    """A batch's reports moving together, their rows locked by the caller: one bulk update and one insert of
    history rows whatever the batch's size; the batch's audit entry speaks for them."""
    fsm_move_many(
        reports,
        to=to,
        actor=actor,
        label="threshold report",
        update_fields=update_fields,
        history=ThresholdReportEvent,
        **kwargs,
    )


def report_check_answer(*, report: ThresholdReport, actor: Staff) -> None:
    _require(actor, "ctr.submit", "recording the FIU's answers")
    if report.status != ThresholdReportStatus.SUBMITTED:
        raise InvalidTransition(f"Cannot record the FIU's answer for a report in {report.status}")


@transaction.atomic
def threshold_report_answer(
    *, report: ThresholdReport, actor: Staff, accepted: bool, reason: str = ""
) -> ThresholdReport:
    """Record the unit's answer for a SUBMITTED report: ACCEPTED, or REJECTED with the unit's reason (required)."""
    locked = lock_row(report)
    report_check_answer(report=locked, actor=actor)
    reason = (reason or "").strip()
    if not accepted and not reason:
        raise ValidationFailed(
            "A reason is required when the FIU rejected the report", details={"reason": ["Required."]}
        )
    if len(reason) > REASON_MAX:
        raise ValidationFailed("Validation error", details={"reason": [f"At most {REASON_MAX} characters."]})
    outcome = FiuOutcome.ACCEPTED if accepted else FiuOutcome.REJECTED
    ThresholdReportFiling.objects.filter(batch_id=locked.batch_id, report=locked).update(
        outcome=outcome, reason=reason, answered_by=actor, answered_at=timezone.now()
    )
    move = fsm_move(
        locked,
        to=ThresholdReportStatus.ACCEPTED if accepted else ThresholdReportStatus.REJECTED,
        actor=actor,
        note=reason,
        lock=False,  # locked above, before the checks
        refused="Cannot record the FIU's answer for a report in {source}",
        update_fields=["fiu_reason"],
        history=ThresholdReportEvent,
        event=lambda move: events.report_answered(actor=actor, report=move.instance, outcome=outcome, reason=reason),
        **({} if accepted else {"reason": reason}),
    )
    return move.instance


def user_has_threshold_reports(*, user: PlatformUser, **_ignored) -> bool:
    """Purge guard: a user with threshold reports is kept (the records the law requires us to hold)."""
    return ThresholdReport.objects.filter(user=user).exists()
