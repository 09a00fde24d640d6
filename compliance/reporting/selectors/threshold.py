"""Reads of threshold reports: the queue, one report, a batch with everything its goAML export needs."""

import uuid

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.utils import timezone

from backoffice.errors import NotFound
from compliance.reporting.choices import BatchStatus, ThresholdReportStatus
from compliance.reporting.deadlines import NOT_FILED
from compliance.reporting.models import ThresholdReport, ThresholdReportBatch, ThresholdReportFiling
from kyc.models import Transaction


def threshold_report_list() -> QuerySet[ThresholdReport]:
    """Reports with their user, and their transactions' ids prefetched (one query for the page)."""
    return ThresholdReport.objects.select_related("user").prefetch_related(
        Prefetch("transactions", queryset=Transaction.objects.only("id").order_by("created_at", "id"))
    )


def threshold_report_get(*, report_id) -> ThresholdReport:
    """One report by its UUID; 404 otherwise."""
    try:
        return threshold_report_list().get(pk=uuid.UUID(str(report_id)))
    except (ValueError, ThresholdReport.DoesNotExist):
        raise NotFound("Threshold report not found") from None


def batch_get(*, batch_id) -> ThresholdReportBatch:
    """One batch with its preparer, submitter and reports' ids; 404 otherwise."""
    try:
        return (
            ThresholdReportBatch.objects.select_related("created_by", "submitted_by")
            .prefetch_related(
                Prefetch("filings", queryset=ThresholdReportFiling.objects.only("id", "batch_id", "report_id"))
            )
            .get(pk=uuid.UUID(str(batch_id)))
        )
    except (ValueError, ThresholdReportBatch.DoesNotExist):
        raise NotFound("Threshold report batch not found") from None


def batch_list() -> QuerySet[ThresholdReportBatch]:
    return ThresholdReportBatch.objects.select_related("created_by", "submitted_by").prefetch_related(
        Prefetch("filings", queryset=ThresholdReportFiling.objects.only("id", "batch_id", "report_id"))
    )


def batch_for_export(*, batch_id) -> ThresholdReportBatch:
    """A batch with each filing's report, user, transactions (and their counterparties), the filing it resubmits
    and that filing's batch: building the goAML reports costs no query per report beyond the PEP lookup."""
    transactions = Transaction.objects.select_related("counterparty_user", "counterparty_vendor").order_by(
        "created_at", "id"
    )
    filings = (
        ThresholdReportFiling.objects.select_related(
            "report__user", "resubmits__batch", "batch__created_by", "batch__submitted_by"
        )
        .prefetch_related(Prefetch("report__transactions", queryset=transactions))
        .order_by("report__day", "report__created_at", "report_id")
    )
    return ThresholdReportBatch.objects.prefetch_related(Prefetch("filings", queryset=filings)).get(pk=batch_id)


def overdue_q(*, now=None) -> Q:
    """Reports past their filing deadline and not with the FIU."""
    return Q(status__in=NOT_FILED, submitted_at__isnull=True, due_at__lt=now or timezone.now())


def filed_late_q() -> Q:
    """Reports submitted after their filing deadline."""
    return Q(submitted_at__isnull=False, submitted_at__gt=F("due_at"))


def threshold_batch_may_submit(*, batch: ThresholdReportBatch, actor) -> bool:
    """Whether ``actor`` may submit the batch now: a prepared batch, the capability, and not its preparer (four
    eyes; ``threshold_batch_submit`` refuses the others)."""
    return (
        batch.status == BatchStatus.PREPARED and actor.has_capability("ctr.submit") and batch.created_by_id != actor.pk
    )


def threshold_waiting_counts() -> dict:
    """What the next batch gathers: pending reports and those the FIU rejected (to file again), one query."""
    return ThresholdReport.objects.filter(
        status__in=[ThresholdReportStatus.PENDING, ThresholdReportStatus.REJECTED]
    ).aggregate(
        pending=Count("id", filter=Q(status=ThresholdReportStatus.PENDING)),
        rejected=Count("id", filter=Q(status=ThresholdReportStatus.REJECTED)),
    )


def threshold_overdue_count(*, now=None) -> int:
    """Reports past their filing deadline and not with the FIU."""
    return ThresholdReport.objects.filter(overdue_q(now=now)).count()


def threshold_work_counts(*, now=None) -> dict:
    """The dashboard's figures in one query: to batch, overdue for filing, waiting for the FIU's answer."""
    return ThresholdReport.objects.aggregate(
        waiting=Count("id", filter=Q(status__in=[ThresholdReportStatus.PENDING, ThresholdReportStatus.REJECTED])),
        overdue=Count("id", filter=overdue_q(now=now)),
        unanswered=Count("id", filter=Q(status=ThresholdReportStatus.SUBMITTED)),
    )


def batch_reports(*, batch: ThresholdReportBatch) -> list[ThresholdReport]:
    """The reports a batch files, with their users, in the order its page lists them."""
    return list(
        ThresholdReport.objects.filter(filings__batch=batch).select_related("user").order_by("day", "created_at", "id")
    )
