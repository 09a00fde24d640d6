"""A match review needs the officer's note either way, and decides the match's PEP_MATCH alert (API and admin)."""

import pytest
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.choices import AlertStatus, CloseReason
from compliance.peps.models.pep import PEPMatch
from compliance.peps.tests.helpers import BASE, add_pep, make_user

pytestmark = pytest.mark.django_db
MATCHES = f"{BASE}/matches"


@pytest.fixture
def match(db):
    make_user("Bakotimu", "Dafiloza")
    add_pep("Bakotimu Dafiloza", category="Judge")
    found = PEPMatch.objects.select_related("alert").get()
    assert found.alert is not None and found.alert.status == AlertStatus.OPEN
    return found


@pytest.mark.parametrize("status", ["CONFIRMED", "DISMISSED"])
@pytest.mark.parametrize("note", [None, "", "   "])
def test_the_api_refuses_a_review_without_a_note(officer_api, match, status, note):
    body = {"status": status} if note is None else {"status": status, "note": note}
    response = officer_api.put(f"{MATCHES}/{match.pk}", body, format="json")
    assert response.status_code == 400, response.json()
    assert "note" in response.json()["error"]["details"]
    match.refresh_from_db()
    assert match.status == "POTENTIAL" and match.alert.status == AlertStatus.OPEN


@pytest.mark.parametrize(
    ("status", "reason", "outcome"),
    [
        ("DISMISSED", CloseReason.PEP_MATCH_DISMISSED, AlertStatus.CLOSED_FALSE_POSITIVE),
        # the customer IS the PEP: the alert was right, never counted as a false positive
        ("CONFIRMED", CloseReason.PEP_MATCH_CONFIRMED, AlertStatus.CLOSED_TRUE_POSITIVE),
    ],
)
def test_a_decided_match_closes_its_alert_through_the_alert_service(officer, match, status, reason, outcome):
    client, staff = officer
    response = client.put(f"{MATCHES}/{match.pk}", {"status": status, "note": "Checked the ID book"}, format="json")
    assert response.status_code == 200, response.json()
    alert = match.alert
    alert.refresh_from_db()
    assert alert.status == outcome and alert.close_reason_code == reason
    event = alert.events.get(to_status=outcome)
    assert event.actor == staff and event.reason_code == reason and "Checked the ID book" in event.note


def test_a_confirmed_match_counts_as_a_true_positive_on_the_alert_page(officer, match):
    client, _ = officer
    client.put(f"{MATCHES}/{match.pk}", {"status": "CONFIRMED", "note": "Same ID number"}, format="json")
    staff = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    browser = Client()
    browser.force_login(staff)
    page = browser.get(f"/admin/compliance/alert/{match.alert.pk}/change/").content.decode()
    assert "Closed: confirmed (true positive)" in page
    assert "Closed: false positive" not in page


def test_an_officer_may_not_close_an_alert_as_a_true_positive_by_hand(officer_api, match):
    response = officer_api.put(
        f"/api/v1/admin/aml/alerts/{match.alert.pk}/status",
        {"status": "CLOSED_TRUE_POSITIVE", "note": "x", "reasonCode": CloseReason.PEP_MATCH_CONFIRMED},
        format="json",
    )
    assert response.status_code == 400


def test_an_escalated_alert_is_left_to_its_case(officer_api, match):
    from compliance.aml.services.alerts import alert_transition

    alert_transition(alert=match.alert, actor=None, to_status=AlertStatus.ESCALATED, note="Looks like a SAR")
    officer_api.put(f"{MATCHES}/{match.pk}", {"status": "DISMISSED", "note": "Not him"}, format="json")
    match.alert.refresh_from_db()
    assert match.alert.status == AlertStatus.ESCALATED


def test_an_officer_may_not_close_an_alert_with_the_pep_reasons_by_hand(officer_api, match):
    response = officer_api.put(
        f"/api/v1/admin/aml/alerts/{match.alert.pk}/status",
        {"status": "CLOSED_FALSE_POSITIVE", "note": "x", "reasonCode": CloseReason.PEP_MATCH_DISMISSED},
        format="json",
    )
    assert response.status_code == 400


@pytest.mark.parametrize(("action", "status"), [("confirm", "CONFIRMED"), ("dismiss", "DISMISSED")])
def test_the_admin_review_form_requires_the_note_and_closes_the_alert(match, action, status):
    staff = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    client = Client()
    client.force_login(staff)
    url = f"/admin/compliance/pepmatch/{match.pk}/{action}/"
    page = client.get(url).content.decode()
    assert 'name="note"' in page and "required" in page.split('name="note"')[1].split(">")[0]
    refused = client.post(url, {"note": ""})
    assert refused.status_code == 200 and "This field is required" in refused.content.decode()
    match.refresh_from_db()
    assert match.status == "POTENTIAL"
    client.post(url, {"note": "Compared the ID book"})
    match.refresh_from_db()
    match.alert.refresh_from_db()
    outcome = AlertStatus.CLOSED_TRUE_POSITIVE if status == "CONFIRMED" else AlertStatus.CLOSED_FALSE_POSITIVE
    assert match.status == status and match.alert.status == outcome
