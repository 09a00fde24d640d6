"""The audit log's pages name what each entry is about (linked to its page) and show every entry's changes in one
readable form, whichever app and event wrote them."""

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.services import audit_record
from backoffice.tests.admin_queries import admin_browser, assert_flat
from kyc import events as kyc_events
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def entries():
    user = PlatformUserFactory(first_name="Thoko", last_name="Mamba")
    kyc_events.user_risk_changed(
        actor=None, user_id=user.pk, before=(43, "MEDIUM", False), after=(22, "LOW", False), reason="Alert closed"
    )
    audit_record(
        actor=None,
        action="alert.status",
        object_type="alert",
        object_id="not-a-uuid",
        changes={"from": "OPEN", "to": "CLOSED_FALSE_POSITIVE", "note": "Payroll", "reason_code": "OTHER"},
    )
    return user


def test_the_list_names_the_object_and_reads_the_changes(entries):
    user = entries
    page = admin_browser(StaffRole.ADMIN).get(reverse("admin:backoffice_auditlog_changelist")).content.decode()
    assert "Thoko Mamba" in page and reverse("admin:kyc_platformuser_change", args=[user.pk]) in page
    assert "current risk score: 43 → 22" in page and "risk rating: Medium → Low" in page
    assert "reason: Alert closed" in page
    assert "status: Open → Closed: false positive" in page and "alert not-a-uuid" in page
    assert "{&quot;" not in page and '{"' not in page  # no raw JSON


def test_one_entry_reads_the_same_way(entries):
    entry = AuditLog.objects.get(action="user.risk")
    page = admin_browser(StaffRole.ADMIN).get(reverse("admin:backoffice_auditlog_change", args=[entry.pk]))
    text = page.content.decode()
    assert "Thoko Mamba" in text and "current risk score: 43 → 22" in text
    assert "potential PEP" not in text  # a field that did not change is not listed as a change


def test_the_list_costs_one_query_per_kind_of_object_not_per_row(entries):
    def more(n):
        for _ in range(n):
            user = PlatformUserFactory()
            kyc_events.user_risk_changed(
                actor=None, user_id=user.pk, before=(0, "LOW", False), after=(10, "LOW", False), reason="x"
            )

    assert_flat(admin_browser(StaffRole.ADMIN), reverse("admin:backoffice_auditlog_changelist"), more)
