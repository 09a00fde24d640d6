"""The priority rule and the deadlines: thirds of the SLA, BREACHED only after the deadline, Eswatini days."""

import datetime as dt

import pytest
from django.core.exceptions import ImproperlyConfigured
from hypothesis import given
from hypothesis import strategies as st

from compliance.casework import deadlines
from compliance.casework.choices import Priority

START = dt.datetime(2026, 11, 20, 8, 0, tzinfo=dt.UTC)
DUE = START + dt.timedelta(hours=30)


@pytest.mark.parametrize(
    "hours,expected",
    [
        (0, Priority.NEW),
        (10, Priority.NEW),  # exactly a third
        (10.01, Priority.URGENT),
        (20, Priority.URGENT),  # exactly two thirds
        (20.01, Priority.CRITICAL),
        (30, Priority.CRITICAL),  # the deadline itself is not yet breached
        (30.001, Priority.BREACHED),
    ],
)
def test_priority_rises_with_the_share_of_the_deadline_spent(hours, expected):
    assert deadlines.priority_of(start=START, due=DUE, at=START + dt.timedelta(hours=hours)) == expected


@given(st.floats(min_value=0, max_value=30, allow_nan=False), st.floats(min_value=0.01, max_value=1000))
def test_nothing_is_breached_before_its_deadline(hours, span_hours):
    due = START + dt.timedelta(hours=span_hours)
    at = min(START + dt.timedelta(hours=hours), due)
    assert deadlines.priority_of(start=START, due=due, at=at) != Priority.BREACHED


def test_alert_sla_follows_the_setting(settings):
    assert deadlines.alert_sla("CRITICAL") == dt.timedelta(hours=24)
    settings.ALERT_SLA_HOURS = {"CRITICAL": 4}
    assert deadlines.alert_sla("CRITICAL") == dt.timedelta(hours=4)
    assert deadlines.alert_sla("LOW") == dt.timedelta(days=14)


def test_an_unknown_severity_in_the_setting_stops_start_up(settings):
    settings.ALERT_SLA_HOURS = {"SEVERE": 4}
    with pytest.raises(ImproperlyConfigured, match="SEVERE"):
        deadlines.check_settings()


@pytest.mark.parametrize(
    "detected,expected",
    [
        # 21:30 UTC on the 20th is 23:30 on the 20th in Mbabane: day 0 is the 20th, due at the end of the 27th
        (dt.datetime(2026, 11, 20, 21, 30, tzinfo=dt.UTC), dt.datetime(2026, 11, 27, 22, 0, tzinfo=dt.UTC)),
        # 22:30 UTC on the 20th is already the 21st in Mbabane
        (dt.datetime(2026, 11, 20, 22, 30, tzinfo=dt.UTC), dt.datetime(2026, 11, 28, 22, 0, tzinfo=dt.UTC)),
    ],
)
def test_sar_deadline_counts_eswatini_days(settings, detected, expected):
    settings.SAR_FILING_DAYS = 7
    assert deadlines.sar_due_at(detected_at=detected) == expected
