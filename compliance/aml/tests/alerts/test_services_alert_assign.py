import pytest

from backoffice.choices import StaffRole
from backoffice.errors import DomainError
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.aml.services.alerts import alert_assign


def test_assign_records_an_event_and_an_audit_entry(make_alert):
    alert = make_alert()
    officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER, first_name="Thandi", last_name="Nkosi")
    alert = alert_assign(alert=alert, actor=officer, assignee=officer)
    assert alert.assigned_to == officer
    assert alert.events.get().note == "Assigned to Thandi Nkosi"
    assert AuditLog.objects.filter(action="alert.assign", object_id=str(alert.pk)).exists()


def test_support_staff_cannot_be_assigned_an_alert(make_alert):
    with pytest.raises(DomainError):
        alert_assign(
            alert=make_alert(), actor=StaffFactory(role=StaffRole.MLRO), assignee=StaffFactory(role=StaffRole.SUPPORT)
        )


def test_closed_alerts_cannot_be_assigned(make_alert):
    officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    with pytest.raises(DomainError):
        alert_assign(alert=make_alert(status="CLOSED_FALSE_POSITIVE"), actor=officer, assignee=officer)
