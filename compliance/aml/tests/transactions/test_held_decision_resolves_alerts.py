"""A decision on a held transaction resolves the alerts that held it: a rejection confirms them (a true positive),
a release explains them (a false positive); an alert with another transaction still held, or cited by a SAR,
stays open."""

import pytest

from backoffice.choices import StaffRole
from compliance.aml.choices import AlertStatus, CloseReason
from compliance.aml.models.alerts import Alert
from compliance.aml.tests.transactions.helpers import HELD, INTAKE, body, make_rule
from compliance.sars.services.sar import sar_create_from_alert

pytestmark = pytest.mark.django_db


@pytest.fixture
def hold_rule(db, settings):
    settings.AML_ALERTS_BACKGROUND = False
    return make_rule("threshold", action="hold", thresholdAmount=500)


def held(key_client, post, user, amount="600", **fields):
    data = post(key_client, INTAKE, body(user, amount, **fields))
    assert data.status_code == 201 and data.json()["data"]["status"] == "HELD", data.content
    return data.json()["data"]["transactionId"]


def the_alert(tx_id) -> Alert:
    return Alert.objects.get(related_transactions=tx_id)


@pytest.mark.parametrize(
    ("verb", "outcome", "reason"),
    [
        ("release", AlertStatus.CLOSED_FALSE_POSITIVE, CloseReason.HELD_TRANSACTION_RELEASED),
        ("reject", AlertStatus.CLOSED_TRUE_POSITIVE, CloseReason.HELD_TRANSACTION_REJECTED),
    ],
)
def test_the_decision_closes_the_alert_that_held_it(
    key_client, post, user, hold_rule, staff_client, verb, outcome, reason
):
    tx_id = held(key_client, post, user, "600", type="WITHDRAWAL")
    assert the_alert(tx_id).status == AlertStatus.OPEN
    client, officer = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.post(f"{HELD}/{tx_id}/{verb}", {"note": "Called the customer"}, format="json")
    assert response.status_code == 200, response.content
    alert = the_alert(tx_id)
    assert alert.status == outcome and alert.close_reason_code == reason and alert.closed_at is not None
    event = alert.events.get(to_status=outcome)
    assert event.actor == officer and "Called the customer" in event.note


def test_an_alert_cited_by_a_sar_is_left_to_the_report(key_client, post, user, hold_rule, staff_client):
    tx_id = held(key_client, post, user, "600", type="WITHDRAWAL")
    client, officer = staff_client(StaffRole.COMPLIANCE_OFFICER)
    sar_create_from_alert(alert=the_alert(tx_id), actor=officer)
    assert the_alert(tx_id).status == AlertStatus.ESCALATED
    client.post(f"{HELD}/{tx_id}/reject", {"note": "Refused"}, format="json")
    assert the_alert(tx_id).status == AlertStatus.ESCALATED
