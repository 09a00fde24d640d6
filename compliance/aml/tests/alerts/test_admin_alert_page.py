"""The alert page shows its history once, in sentences (no second raw table labelled with the alert's UUID), and a
refused triage step keeps what the officer chose (the reason, the note)."""

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.services.alerts import alert_assign


@pytest.fixture
def officer_client(db):
    staff = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    client = Client()
    client.force_login(staff)
    return client, staff


def test_the_history_is_shown_once_without_the_uuid(officer_client, make_alert):
    client, staff = officer_client
    alert = make_alert()
    alert_assign(alert=alert, actor=staff, assignee=staff)
    page = client.get(reverse("admin:compliance_alert_change", args=[alert.pk])).content.decode()
    assert page.count('id="alert-history-title"') == 1
    assert "History as recorded" not in page
    assert f"{alert.pk}: " not in page  # an inline row's label: "<uuid>: OPEN -> OPEN"


def test_a_refused_close_keeps_the_chosen_reason_and_note(officer_client, make_alert):
    client, _ = officer_client
    alert = make_alert()
    url = reverse("admin:compliance_alert_triage", args=[alert.pk])
    # no note: the service refuses; the page comes back with the reason still chosen
    page = client.post(url, {"op": "close_false_positive", "reason_code": "DATA_ERROR", "note": ""}, follow=True)
    text = page.content.decode()
    assert "A note is required to close an alert" in text
    assert '<option value="DATA_ERROR" selected>' in text
    alert.refresh_from_db()
    assert alert.status == "OPEN"
    # no reason: the note written stays
    page = client.post(
        url, {"op": "close_false_positive", "reason_code": "", "note": "Salary, payslip seen"}, follow=True
    )
    assert "Salary, payslip seen</textarea>" in page.content.decode()
    # once it succeeds, nothing is kept for the next visit
    client.post(url, {"op": "close_false_positive", "reason_code": "DATA_ERROR", "note": "Salary"})
    alert.refresh_from_db()
    assert alert.status == "CLOSED_FALSE_POSITIVE"
    after = client.get(reverse("admin:compliance_alert_change", args=[alert.pk])).content.decode()
    assert "Salary, payslip seen</textarea>" not in after
