"""Alerts a SAR cites are ESCALATED while it is written and checked, CLOSED_SAR_FILED once it is submitted."""

import pytest

from compliance.aml.choices import AlertStatus
from compliance.aml.tests.alerts.helpers import make_alert, rule  # noqa: F401 - fixtures
from compliance.sars.choices import SARStatus
from compliance.sars.services.sar import sar_create_from_alert, sar_return
from compliance.sars.services.sar_drafts import sar_update
from compliance.sars.tests.sar.helpers import file_sar, move

pytestmark = pytest.mark.django_db


def status_of(alert) -> str:
    alert.refresh_from_db()
    return alert.status


def test_an_alert_stays_escalated_through_review_and_closes_when_the_sar_is_submitted(subject, crew, subject_alert):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[subject_alert.pk])
    assert status_of(subject_alert) == AlertStatus.ESCALATED
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    assert status_of(subject_alert) == AlertStatus.ESCALATED
    move(sar, crew["approver"], SARStatus.SUBMITTED)
    assert status_of(subject_alert) == AlertStatus.CLOSED_SAR_FILED
    last = subject_alert.events.order_by("-created_at", "-id").first()
    assert last.actor == crew["approver"] and f"SAR {sar.sar_id} submitted" in last.note


def test_a_returned_sar_keeps_its_alerts_escalated(subject, crew, subject_alert):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[subject_alert.pk])
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    sar_return(sar=sar, actor=crew["reviewer"], reason="Add the dates.")
    assert status_of(subject_alert) == AlertStatus.ESCALATED


def test_a_draft_that_stops_citing_an_alert_leaves_it_escalated_never_closed(subject, crew, subject_alert):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[subject_alert.pk])
    sar_update(sar=sar, actor=crew["filer"], related_alert_ids=[])
    assert status_of(subject_alert) == AlertStatus.ESCALATED
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    move(sar, crew["approver"], SARStatus.SUBMITTED)
    assert status_of(subject_alert) == AlertStatus.ESCALATED  # the submitted report no longer cites it


def test_an_alert_cited_by_an_edit_is_escalated(subject, crew, make_alert):  # noqa: F811
    alert = make_alert(user=subject, status=AlertStatus.UNDER_REVIEW)
    sar = file_sar(subject, crew["filer"])
    sar_update(sar=sar, actor=crew["filer"], related_alert_ids=[alert.pk])
    assert status_of(alert) == AlertStatus.ESCALATED


def test_a_closed_alert_cited_stays_closed(subject, crew, make_alert):  # noqa: F811
    alert = make_alert(user=subject, status=AlertStatus.CLOSED_FALSE_POSITIVE)
    sar = file_sar(subject, crew["filer"], related_alert_ids=[alert.pk])
    for target, who in [
        (SARStatus.PENDING_REVIEW, "filer"),
        (SARStatus.PENDING_APPROVAL, "reviewer"),
        (SARStatus.SUBMITTED, "approver"),
    ]:
        move(sar, crew[who], target)
    assert status_of(alert) == AlertStatus.CLOSED_FALSE_POSITIVE and not alert.events.exists()


def test_filing_from_an_alert_escalates_it_and_a_second_filing_is_refused(crew, make_alert):  # noqa: F811
    from backoffice.errors import Conflict

    alert = make_alert(transactions=2)
    sar = sar_create_from_alert(alert=alert, actor=crew["filer"])
    assert status_of(alert) == AlertStatus.ESCALATED
    with pytest.raises(Conflict, match=sar.sar_id):
        sar_create_from_alert(alert=alert, actor=crew["reviewer"])
    # the filer answers the template's prompts before handing it over (a draft with prompts left stays a draft)
    sar = sar_update(sar=sar, actor=crew["filer"], activity_description="Two deposits split under the threshold.")
    for target, who in [
        (SARStatus.PENDING_REVIEW, "filer"),
        (SARStatus.PENDING_APPROVAL, "reviewer"),
        (SARStatus.SUBMITTED, "approver"),
    ]:
        move(sar, crew[who], target)
    assert status_of(alert) == AlertStatus.CLOSED_SAR_FILED
