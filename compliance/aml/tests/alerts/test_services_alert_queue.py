"""The triage queue's bulk steps and the alert page's steps (``services.alert_queue``), without the admin pages."""

import pytest

from backoffice.choices import StaffRole
from backoffice.errors import ValidationFailed
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.services.alert_queue import (
    alert_bulk_start_review,
    alert_queue_apply,
    alert_triage_step,
    held_by_others,
)


@pytest.fixture
def me(db):
    return StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)


@pytest.fixture
def colleague(db):
    return StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)


def test_alerts_a_colleague_holds_need_the_confirmation_and_nothing_is_done_without_it(me, colleague, make_alert):
    mine, theirs = make_alert(assigned_to=me), make_alert(assigned_to=colleague)
    assert held_by_others([mine, theirs], actor=me) == [theirs]
    with pytest.raises(ValidationFailed, match="assigned to someone else"):
        alert_queue_apply(actor=me, action="start_review", alerts=[mine, theirs])
    assert set(Alert.objects.values_list("status", flat=True)) == {"OPEN"}
    result = alert_queue_apply(actor=me, action="start_review", alerts=[mine, theirs], confirm_others=True)
    assert (result.updated, result.errors) == (2, [])


@pytest.mark.parametrize(
    ("action", "fields", "problem"),
    [
        ("assign_to_colleague", {}, "Choose the colleague."),
        ("close_false_positive", {"reason_code": "DUPLICATE_ALERT", "note": "  "}, "reason code and a note"),
        ("close_false_positive", {"note": "seen"}, "reason code and a note"),
        ("delete_everything", {}, "Unknown queue action"),
    ],
)
def test_a_step_missing_what_it_needs_is_refused_as_a_whole(me, make_alert, action, fields, problem):
    alert = make_alert()
    with pytest.raises(ValidationFailed, match=problem):
        alert_queue_apply(actor=me, action=action, alerts=[alert], **fields)
    alert.refresh_from_db()
    assert (alert.status, alert.assigned_to_id) == ("OPEN", None)


def test_the_queue_assigns_to_me_or_a_colleague_and_closes_with_one_reason(me, colleague, make_alert):
    first, second = make_alert(), make_alert()
    assert alert_queue_apply(actor=me, action="assign_to_me", alerts=[first]).updated == 1
    alert_queue_apply(actor=me, action="assign_to_colleague", alerts=[second], assignee=colleague)
    closed = alert_queue_apply(
        actor=me,
        action="close_false_positive",
        alerts=[first],
        reason_code="DUPLICATE_ALERT",
        note="Same burst",
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.assigned_to, second.assigned_to, closed.updated) == (me, colleague, 1)
    assert first.status == "CLOSED_FALSE_POSITIVE"


def test_starting_reviews_reports_each_alert_that_cannot_start_beside_the_others(me, make_alert):
    ready, closed = make_alert(), make_alert(status="CLOSED_SAR_FILED")
    result = alert_bulk_start_review(actor=me, alerts=[ready, closed], note="looking")
    ready.refresh_from_db()
    assert ready.status == "UNDER_REVIEW" and result.updated == 1
    assert [pk for pk, _ in result.errors] == [str(closed.pk)]


def test_a_triage_step_assigns_moves_or_is_refused(me, colleague, make_alert):
    alert = make_alert()
    assert alert_triage_step(alert=alert, actor=me, op="assign_me").assigned_to == me
    assert alert_triage_step(alert=alert, actor=me, op="assign", assignee_id=colleague.pk).assigned_to == colleague
    assert alert_triage_step(alert=alert, actor=me, op="assign").assigned_to is None
    assert alert_triage_step(alert=alert, actor=me, op="start_review").status == "UNDER_REVIEW"
    with pytest.raises(ValidationFailed, match="Unknown triage step"):
        alert_triage_step(alert=alert, actor=me, op="delete")
