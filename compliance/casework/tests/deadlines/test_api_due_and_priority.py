"""Alert and SAR records carry dueAt and priority from the SLA settings."""

import datetime as dt

from django.utils import timezone

from backoffice.choices import StaffRole
from compliance.aml.models.alerts import Alert
from compliance.sars.services.sar import sar_create
from kyc.tests.factories import PlatformUserFactory

ALERTS = "/api/v1/admin/aml/alerts"
SARS = "/api/v1/admin/aml/sars"


def _age(alert, **delta):
    Alert.objects.filter(pk=alert.pk).update(created_at=timezone.now() - dt.timedelta(**delta))


def test_alert_records_carry_due_at_and_priority(staff_client, make_alert, settings):
    settings.ALERT_SLA_HOURS = {"HIGH": 30}
    fresh, urgent, critical, breached = (make_alert(severity="HIGH") for _ in range(4))
    _age(urgent, hours=11)
    _age(critical, hours=21)
    _age(breached, hours=31)
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    items = {a["id"]: a for a in client.get(ALERTS).json()["data"]}
    assert {k: items[str(a.pk)]["priority"] for k, a in dict(f=fresh, u=urgent, c=critical, b=breached).items()} == {
        "f": "NEW",
        "u": "URGENT",
        "c": "CRITICAL",
        "b": "BREACHED",
    }
    fresh.refresh_from_db()
    due = dt.datetime.fromisoformat(items[str(fresh.pk)]["dueAt"].replace("Z", "+00:00"))
    assert due == fresh.created_at + dt.timedelta(hours=30)
    detail = client.get(f"{ALERTS}/{breached.pk}").json()["data"]
    assert detail["priority"] == "BREACHED" and detail["dueAt"] == items[str(breached.pk)]["dueAt"]


def test_a_closed_alert_keeps_the_priority_it_had_when_closed(staff_client, make_alert, settings):
    settings.ALERT_SLA_HOURS = {"MEDIUM": 30}
    alert = make_alert(severity="MEDIUM")
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    body = {"status": "CLOSED_FALSE_POSITIVE", "note": "Payroll", "reasonCode": "EXPLAINED_ACTIVITY"}
    assert client.put(f"{ALERTS}/{alert.pk}/status", body, format="json").status_code == 200
    _age(alert, hours=100)  # raised long ago, but closed just now: still within the first third when closed
    Alert.objects.filter(pk=alert.pk).update(closed_at=timezone.now() - dt.timedelta(hours=99))
    assert client.get(f"{ALERTS}/{alert.pk}").json()["data"]["priority"] == "NEW"


def test_sar_records_count_the_deadline_from_the_first_alert(staff_client, make_alert, settings):
    settings.SAR_FILING_DAYS = 3
    client, filer = staff_client(StaffRole.COMPLIANCE_OFFICER)
    subject = PlatformUserFactory()
    alert = make_alert(user=subject)
    _age(alert, days=3, hours=12)
    body = {
        "entityUserId": str(subject.pk),
        "suspiciousActivityType": "structuring",
        "activityDescription": "Deposits just below the threshold",
        "dateOfSuspiciousActivity": timezone.now().date().isoformat(),
        "amountInvolved": 100,
        "relatedAlertIds": [str(alert.pk)],
    }
    created = client.post(SARS, body, format="json").json()["data"]
    alert.refresh_from_db()
    local_day = (alert.created_at + dt.timedelta(hours=2)).date()
    expected_due = dt.datetime.combine(local_day + dt.timedelta(days=4), dt.time(), dt.UTC) - dt.timedelta(hours=2)
    assert dt.datetime.fromisoformat(created["dueAt"].replace("Z", "+00:00")) == expected_due
    assert created["priority"] in ("CRITICAL", "BREACHED")
    listed = client.get(SARS).json()["data"]["sars"][0]
    assert (listed["dueAt"], listed["priority"]) == (created["dueAt"], created["priority"])


def test_a_sar_without_alerts_counts_from_its_own_creation(staff_client, settings):
    settings.SAR_FILING_DAYS = 30
    client, filer = staff_client(StaffRole.COMPLIANCE_OFFICER)
    sar = sar_create(
        actor=filer,
        entity_user_id=PlatformUserFactory().pk,
        suspicious_activity_type="fraud",
        activity_description="Card fraud",
        date_of_suspicious_activity=timezone.now().date(),
        amount_involved=10,
    )
    listed = client.get(SARS).json()["data"]["sars"][0]
    assert listed["id"] == str(sar.pk) and listed["priority"] == "NEW"
