"""Verification's metrics (served at /metrics by ``backoffice.ops.metrics``): run and stage durations,
jobs by status."""

from django.db.models import Count
from prometheus_client import Histogram
from prometheus_client.core import GaugeMetricFamily

from verification.choices import JobStatus
from verification.models import VerificationJob

_BUCKETS = (0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60, 120)

RUN_DURATION = Histogram(
    "vikela_verification_duration_seconds",
    "Time one verification run took, by outcome (approved, rejected, manual_review, failed)",
    ["outcome"],
    buckets=_BUCKETS,
)
STAGE_DURATION = Histogram(
    "vikela_verification_stage_duration_seconds",
    "Time one stage of a verification run took (ocr_processing, face_verification, final_review)",
    ["stage"],
    buckets=_BUCKETS,
)


def jobs_by_status():
    """Scrape time: how many jobs are in each status (one GROUP BY on the indexed status column)."""
    counts = dict.fromkeys(JobStatus.values, 0)
    for row in VerificationJobCounts.rows():
        counts[row["status"]] = row["n"]
    family = GaugeMetricFamily("vikela_verification_jobs", "Verification jobs in each status", labels=["status"])
    for status, count in sorted(counts.items()):
        family.add_metric([status], count)
    yield family


class VerificationJobCounts:
    @staticmethod
    def rows():
        return VerificationJob.objects.order_by().values("status").annotate(n=Count("id"))
