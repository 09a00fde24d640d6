import pytest
from django.core.exceptions import ValidationError

from backoffice.models import AuditLog
from backoffice.ops.request_context import reset_current_ip, set_current_ip
from backoffice.services import audit_record
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


def test_an_entry_records_actor_action_object_changes_and_ip():
    staff = StaffFactory(email="ada@example.com")
    token = set_current_ip("198.51.100.4")
    try:
        entry = audit_record(
            actor=staff, action="user.update", object_type="user", object_id="42", changes={"firstName": ["A", "B"]}
        )
    finally:
        reset_current_ip(token)
    assert entry.action == "user.update"
    entry = AuditLog.objects.get()  # on PostgreSQL the instance has no id until the commit links the entry
    assert (entry.actor, entry.actor_email, entry.ip_address) == (staff, "ada@example.com", "198.51.100.4")
    assert entry.changes == {"firstName": ["A", "B"]} and entry.created_at


def test_entries_cannot_be_changed_or_deleted():
    entry = audit_record(actor=None, action="x", object_type="y")
    entry.action = "rewritten"
    with pytest.raises(ValidationError):
        entry.save()
    with pytest.raises(ValidationError):
        entry.delete()
    assert AuditLog.objects.get().action == "x"


def test_the_actor_email_survives_the_account(db):
    staff = StaffFactory(email="gone@example.com")
    audit_record(actor=staff, action="x", object_type="y")
    staff.delete()
    entry = AuditLog.objects.get()
    assert entry.actor is None and entry.actor_email == "gone@example.com"
