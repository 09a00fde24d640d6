"""Regulator statistics for the MLRO, per Eswatini month: what was filed with the FIU, how it was answered, how fast.

Per month (the month a report was filed, in Eswatini time):

* SARs filed, by activity type and by the unit's outcome (accepted, rejected, no answer yet);
* threshold-report filings (a report filed again after a rejection counts once more), accepted and rejected;
* the median days from detection to filing: a SAR's first cited alert (else its drafting) to its
  submission; a threshold report's opening (the cash reached the threshold) to its first submission;
* overdue filings: reports filed after their legal deadline (``SAR_FILING_DAYS``, ``CTR_FILING_DAYS``).

A fixed number of queries whatever the volume: each list is read once for the window and counted here.
"""

import csv
import datetime as dt
import io
import statistics
from dataclasses import dataclass, field

from compliance.casework import deadlines
from compliance.reporting.choices import FiuOutcome
from compliance.reporting.deadlines import ESWATINI
from compliance.reporting.models import ThresholdReport, ThresholdReportFiling
from compliance.sars.choices import ActivityType
from compliance.sars.models.sar import SAR
from compliance.sars.selectors.sar import first_alert_at

DAY = 86400


@dataclass
class Month:
    """One month's figures (``month`` is ``YYYY-MM``)."""

    month: str
    sars_filed: int = 0
    sars_by_type: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ActivityType.values, 0))
    sars_accepted: int = 0
    sars_rejected: int = 0
    sars_unanswered: int = 0
    sar_days: list[float] = field(default_factory=list)
    sars_overdue: int = 0
    ctr_filed: int = 0
    ctr_accepted: int = 0
    ctr_rejected: int = 0
    ctr_days: list[float] = field(default_factory=list)
    ctr_overdue: int = 0

    @property
    def sar_median_days(self) -> float | None:
        return round(statistics.median(self.sar_days), 1) if self.sar_days else None

    @property
    def ctr_median_days(self) -> float | None:
        return round(statistics.median(self.ctr_days), 1) if self.ctr_days else None

    @property
    def overdue_filings(self) -> int:
        return self.sars_overdue + self.ctr_overdue


def month_of(moment: dt.datetime) -> str:
    return f"{moment.astimezone(ESWATINI):%Y-%m}"


def months_back(until: dt.date, count: int) -> list[str]:
    """The ``count`` months ending with ``until``'s, oldest first."""
    year, month = until.year, until.month
    out = []
    for _ in range(count):
        out.append(f"{year:04d}-{month:02d}")
        month -= 1
        if month == 0:
            year, month = year - 1, 12
    return out[::-1]


def _days(start: dt.datetime, end: dt.datetime) -> float:
    return (end - start).total_seconds() / DAY


def regulator_statistics(*, until: dt.date, months: int = 12) -> list[Month]:
    """The figures of the ``months`` Eswatini months ending with ``until``'s, oldest first."""
    keys = months_back(until, months)
    rows = {key: Month(key) for key in keys}
    first_year, first_month = map(int, keys[0].split("-"))
    since = dt.datetime(first_year, first_month, 1, tzinfo=ESWATINI)

    sars = (
        SAR.objects.filter(submitted_at__gte=since)
        .annotate(first_alert_at=first_alert_at())
        .only("id", "created_at", "submitted_at", "suspicious_activity_type", "fiu_outcome")
    )
    for sar in sars:
        row = rows.get(month_of(sar.submitted_at))
        if row is None:
            continue
        row.sars_filed += 1
        row.sars_by_type[sar.suspicious_activity_type] = row.sars_by_type.get(sar.suspicious_activity_type, 0) + 1
        if sar.fiu_outcome == "ACCEPTED":
            row.sars_accepted += 1
        elif sar.fiu_outcome == "REJECTED":
            row.sars_rejected += 1
        else:
            row.sars_unanswered += 1
        detected = deadlines.sar_detected_at(sar)
        row.sar_days.append(_days(detected, sar.submitted_at))
        if sar.submitted_at > deadlines.sar_due_at(detected_at=detected):
            row.sars_overdue += 1

    filings = ThresholdReportFiling.objects.filter(batch__submitted_at__gte=since).values_list(
        "batch__submitted_at", "outcome"
    )
    for submitted_at, outcome in filings:
        row = rows.get(month_of(submitted_at))
        if row is None:
            continue
        row.ctr_filed += 1
        row.ctr_accepted += outcome == FiuOutcome.ACCEPTED
        row.ctr_rejected += outcome == FiuOutcome.REJECTED

    reports = ThresholdReport.objects.filter(submitted_at__gte=since).values_list(
        "created_at", "submitted_at", "due_at"
    )
    for opened, submitted, due in reports:
        row = rows.get(month_of(submitted))
        if row is None:
            continue
        row.ctr_days.append(_days(opened, submitted))
        row.ctr_overdue += submitted > due
    return [rows[key] for key in keys]


CSV_HEADER = [
    "month",
    "sars_filed",
    *(f"sars_{t}" for t in ActivityType.values),
    "sars_accepted",
    "sars_rejected",
    "sars_unanswered",
    "sar_median_days_detection_to_filing",
    "threshold_reports_filed",
    "threshold_reports_accepted",
    "threshold_reports_rejected",
    "threshold_report_median_days_detection_to_filing",
    "overdue_filings_sars",
    "overdue_filings_threshold_reports",
]


def csv_rows(months: list[Month]) -> list[list]:
    return [
        [
            m.month,
            m.sars_filed,
            *(m.sars_by_type.get(t, 0) for t in ActivityType.values),
            m.sars_accepted,
            m.sars_rejected,
            m.sars_unanswered,
            "" if m.sar_median_days is None else m.sar_median_days,
            m.ctr_filed,
            m.ctr_accepted,
            m.ctr_rejected,
            "" if m.ctr_median_days is None else m.ctr_median_days,
            m.sars_overdue,
            m.ctr_overdue,
        ]
        for m in months
    ]


def statistics_csv(months: list[Month]) -> str:
    """The months as CSV text: ``CSV_HEADER``, then one line per month."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_HEADER)
    writer.writerows(csv_rows(months))
    return buffer.getvalue()
