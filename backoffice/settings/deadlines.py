"""Deadlines of case work: how long an alert may wait per severity, and how long a SAR may take to file.

``ALERT_SLA_HOURS`` overrides single severities (``CRITICAL=12,LOW=720``);
which keys exist is the compliance app's to check (``compliance.casework.deadlines``,
at start-up), so the list of severities is not repeated here. SAR filing days
are Eswatini calendar days (UTC+2): the deadline is the end of the local day.
"""

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_int, env_map

ALERT_SLA_HOURS: dict[str, int] = {}
for _severity, _hours in env_map("ALERT_SLA_HOURS", {}).items():
    if not _hours.isdigit() or not 1 <= int(_hours) <= 24 * 366:
        raise ImproperlyConfigured(
            f"ALERT_SLA_HOURS: {_severity} must be a whole number of hours 1..8784, got {_hours!r}"
        )
    ALERT_SLA_HOURS[_severity] = int(_hours)

SAR_FILING_DAYS = env_int("SAR_FILING_DAYS", 7, minimum=1, maximum=365)
# Cash threshold reports: Eswatini calendar days after the day of the cash by which the FIU must have them.
CTR_FILING_DAYS = env_int("CTR_FILING_DAYS", 14, minimum=1, maximum=365)
