"""The legal filing deadline of threshold reports (``CTR_FILING_DAYS``), and whether one is overdue."""

from django.utils import timezone

from compliance.reporting.choices import ThresholdReportStatus

# Reports not yet with the unit: the deadline still runs for them.
NOT_FILED = frozenset({ThresholdReportStatus.PENDING, ThresholdReportStatus.BATCHED, ThresholdReportStatus.REJECTED})


def report_overdue(report, *, now=None) -> bool:
    """Past its deadline: not yet filed now, or first filed after the deadline (a late filing stays late)."""
    if report.submitted_at is not None:
        return report.submitted_at > report.due_at
    return report.status in NOT_FILED and (now or timezone.now()) > report.due_at
