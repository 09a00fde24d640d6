"""Filing a SAR from an alert: a DRAFT SAR through the SAR service, the alert escalated until the SAR is submitted."""

import pytest
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.errors import DomainError
from backoffice.tests.factories import StaffFactory
from compliance.sars.models.sar import SAR
from compliance.sars.services.sar import sar_create_from_alert as alert_file_sar


def _login(role):
    staff = StaffFactory(role=role)
    client = Client()
    client.force_login(staff)
    return client, staff


def test_the_service_drafts_a_sar_with_the_alert_and_its_transactions(make_alert):
    alert = make_alert(transactions=3)
    officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    sar = alert_file_sar(alert=alert, actor=officer)
    txs = list(alert.related_transactions.all())
    assert sar.status == "DRAFT" and sar.entity_user_id == alert.user_id and sar.filed_by == officer
    assert set(sar.related_transactions.all()) == set(txs) and list(sar.related_alerts.all()) == [alert]
    assert sar.amount_involved == sum(t.amount for t in txs)
    alert.refresh_from_db()
    assert alert.status == "ESCALATED" and sar.sar_id in alert.events.get().note


def test_the_narrative_is_the_template_with_what_the_alert_tells(make_alert):
    alert = make_alert(transactions=2)
    sar = alert_file_sar(alert=alert, actor=StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    text = sar.activity_description
    assert [line.split(":")[0] for line in text.split("\n\n")] == ["WHO", "WHAT", "WHEN", "WHERE", "WHY", "HOW"]
    assert alert.user.full_name in text and "2 transaction(s)" in text
    assert "WHY: [" in text and "HOW: [" in text  # what only the officer knows is left as a prompt
    assert sar.narrative_versions.get().text == text


def test_a_closed_alert_files_nothing(make_alert):
    alert = make_alert(status="CLOSED_FALSE_POSITIVE")
    with pytest.raises(DomainError):
        alert_file_sar(alert=alert, actor=StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    assert not SAR.objects.exists()


def test_the_queue_action_drafts_the_sar_and_opens_it(db, make_alert):
    alert = make_alert()
    client, _ = _login(StaffRole.COMPLIANCE_OFFICER)
    r = client.post("/admin/compliance/alert/", {"action": "file_sar", "_selected_action": [alert.pk]})
    sar = SAR.objects.get()
    assert r.status_code == 302 and r["Location"].endswith(f"/admin/compliance/sar/{sar.pk}/change/")
    assert list(sar.related_alerts.all()) == [alert]


def test_the_alert_page_button_drafts_the_sar(db, make_alert):
    alert = make_alert()
    client, _ = _login(StaffRole.MLRO)
    page = client.get(f"/admin/compliance/alert/{alert.pk}/change/").content.decode()
    assert "Draft a SAR from this alert" in page
    r = client.post(f"/admin/compliance/alert/{alert.pk}/file-sar/")
    assert r.status_code == 302 and SAR.objects.filter(related_alerts=alert).exists()
    alert.refresh_from_db()
    assert alert.status == "ESCALATED"


def test_a_get_or_a_second_filing_changes_nothing(db, make_alert):
    alert = make_alert()
    client, _ = _login(StaffRole.COMPLIANCE_OFFICER)
    client.get(f"/admin/compliance/alert/{alert.pk}/file-sar/")
    assert not SAR.objects.exists()
    client.post(f"/admin/compliance/alert/{alert.pk}/file-sar/")
    r = client.post(f"/admin/compliance/alert/{alert.pk}/file-sar/", follow=True)
    sar = SAR.objects.get()  # a report in progress already cites the alert: no second one
    assert f"already cited by {sar.sar_id}" in r.content.decode()


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_cannot_file_from_an_alert(db, make_alert, role):
    alert = make_alert()
    client, _ = _login(role)
    r = client.post(f"/admin/compliance/alert/{alert.pk}/file-sar/")
    assert r.status_code in (302, 403) and not SAR.objects.exists()
