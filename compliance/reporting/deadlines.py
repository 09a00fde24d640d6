"""The legal filing deadline of threshold reports (``CTR_FILING_DAYS``), its clock, and whether one is overdue.

Days are Eswatini calendar days (Africa/Mbabane); the deadline is the end
(local midnight) of the ``CTR_FILING_DAYS``-th day after the day of the cash.
The clock uses the case-work priorities (``compliance.casework.deadlines``):
NEW, URGENT past a third of the time, CRITICAL past two thirds, BREACHED past
the deadline, frozen when the report is first filed.
"""

import datetime as dt
import zoneinfo

from django.conf import settings
from django.utils import timezone

from compliance.casework import deadlines
from compliance.casework.choices import Priority
from compliance.reporting.choices import ThresholdReportStatus

ESWATINI = zoneinfo.ZoneInfo("Africa/Mbabane")
# Reports not yet with the unit: the deadline still runs for them.
NOT_FILED = frozenset({ThresholdReportStatus.PENDING, ThresholdReportStatus.BATCHED, ThresholdReportStatus.REJECTED})


def local_day(moment: dt.datetime) -> dt.date:
    """The Eswatini calendar day of ``moment``."""
    return moment.astimezone(ESWATINI).date()


def day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of an Eswatini day, as aware datetimes."""
    start = dt.datetime.combine(day, dt.time.min, ESWATINI)
    return start, start + dt.timedelta(days=1)


def ctr_due_at(day: dt.date) -> dt.datetime:
    """The end (local midnight) of the ``CTR_FILING_DAYS``-th Eswatini day after the day of the cash."""
    return day_bounds(day + dt.timedelta(days=settings.CTR_FILING_DAYS))[1].astimezone(dt.UTC)


def report_overdue(report, *, now=None) -> bool:
    """Past its deadline and not with the unit: nothing more to do once filed (a late filing is
    ``report_filed_late``, a fact of the past, never "overdue" on a report the unit has, or has accepted)."""
    if report.submitted_at is not None:
        return False
    return report.status in NOT_FILED and (now or timezone.now()) > report.due_at


def report_filed_late(report) -> bool:
    """First filed after its deadline (a late filing stays late)."""
    return report.submitted_at is not None and report.submitted_at > report.due_at


def filing_priority(report, *, now=None) -> str:
    """The clock's colour along [the day's start, the deadline], frozen at the first filing."""
    start = day_bounds(report.day)[0]
    return deadlines.priority_of(start=start, due=report.due_at, at=report.submitted_at or now or timezone.now())


# The clock of a filed report: it no longer runs, so it shows no priority (a red BREACHED on a report the unit
# accepted reads as work still due): in time, or late, as a fact.
FILED_IN_TIME, FILED_LATE = "FILED", "FILED_LATE"
CLOCK_COLOURS = {**deadlines.PRIORITY_COLOURS, FILED_IN_TIME: "success", FILED_LATE: "warning"}


def filing_clock(report, *, now=None) -> tuple[str, str]:
    """(state, words) of the report's clock: its priority while it runs ("Overdue" past the deadline), then
    "Filed in time" or "Filed late" once the report went to the unit."""
    if report.submitted_at is not None:
        return (FILED_LATE, "Filed late") if report_filed_late(report) else (FILED_IN_TIME, "Filed in time")
    priority = filing_priority(report, now=now)
    return priority, "Overdue" if report_overdue(report, now=now) else Priority(priority).label


def last_filing_day(report) -> str:
    """The last Eswatini day to file on (the deadline is the midnight that ends it)."""
    return f"{(report.due_at.astimezone(ESWATINI) - dt.timedelta(seconds=1)):%Y-%m-%d}"
