"""Reads of threshold reports: the queue, one report, a batch with everything its goAML export needs."""

import uuid

from django.db.models import Prefetch, QuerySet

from backoffice.errors import NotFound
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
