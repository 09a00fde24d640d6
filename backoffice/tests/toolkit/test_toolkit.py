"""The service toolkit's pieces that need no state machine: cleaning, diffs, updates, audit events and batches.

``fsm_move`` is tested where the first state machine lives (``vendors/tests/kyc/test_fsm_move.py``): the foundation
has none of its own, and its tests may not import a higher app.
"""

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backoffice import events
from backoffice.choices import StaffRole
from backoffice.errors import ValidationFailed
from backoffice.models import AuditLog, Staff
from backoffice.services import audit_batch, field_diff, fsm_move, model_clean, model_update
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


def test_model_clean_names_the_refused_fields_in_one_400():
    staff = Staff(email="not an address", role="boss")
    with pytest.raises(ValidationFailed) as caught:
        model_clean(staff, exclude=["password"])
    assert caught.value.message == "Validation error"
    assert caught.value.status == 400
    assert set(caught.value.details) == {"email", "role"}


def test_model_clean_puts_clean_s_own_errors_under_non_field_errors_and_can_headline_a_field():
    staff = Staff(email="a@example.com", role=StaffRole.SUPPORT, is_superuser=True)
    with pytest.raises(ValidationFailed) as caught:
        model_clean(staff, exclude=["password"], headlines={"role": "Superusers are administrators"})
    assert caught.value.details == {"role": ["Superusers are administrators."]}
    assert caught.value.message == "Superusers are administrators"
    with pytest.raises(ValidationFailed) as caught:
        model_clean(Staff(email="x", role=StaffRole.SUPPORT), exclude=["password"], headlines={"role": "Bad role"})
    assert caught.value.message == "Validation error"  # the headline is for its own field only


def test_model_clean_passes_a_valid_record_and_normalises_it_through_clean():
    staff = Staff(email="Ada@Example.COM", role=StaffRole.SUPPORT)
    model_clean(staff, exclude=["password"])
    assert staff.email == "ada@example.com"


def test_field_diff_lists_what_differs_in_values_json_can_store():
    day, key = dt.date(2024, 5, 1), uuid.uuid4()
    before = {"name": "Ada", "born": None, "amount": Decimal("1.00"), "id": key, "role": "support"}
    after = {"name": "Ada", "born": day, "amount": Decimal("2.50"), "id": key, "role": StaffRole.FINANCE}
    assert field_diff(before, after) == {
        "born": {"from": None, "to": "2024-05-01"},
        "amount": {"from": "1.00", "to": "2.50"},
        "role": {"from": "support", "to": "finance"},
    }
    assert field_diff(None, {"name": "Ada"}) == {"name": {"from": None, "to": "Ada"}}


def test_model_update_sets_cleans_and_saves_only_what_changed():
    staff = StaffFactory(first_name="Ada", last_name="Byron", role=StaffRole.SUPPORT)
    stamp = Staff.objects.filter(pk=staff.pk).values_list("updated_at", flat=True).get()
    data = {"first_name": "Ada", "last_name": "Lovelace", "role": StaffRole.ADMIN, "email": "ignored@example.com"}
    with CaptureQueriesContext(connection) as captured:
        diff = model_update(staff, fields=["first_name", "last_name"], data=data, exclude=["password"])
    assert diff == {"last_name": {"from": "Byron", "to": "Lovelace"}}
    update = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("UPDATE")]
    assert len(update) == 1 and '"last_name"' in update[0] and '"updated_at"' in update[0]
    assert '"first_name"' not in update[0] and '"role"' not in update[0]
    stored = Staff.objects.get(pk=staff.pk)
    assert (stored.last_name, stored.role, stored.email) == ("Lovelace", StaffRole.SUPPORT, staff.email)
    assert stored.updated_at > stamp


def test_model_update_saves_nothing_when_nothing_changed_or_the_record_is_invalid():
    staff = StaffFactory(first_name="Ada")
    email = staff.email
    with CaptureQueriesContext(connection) as captured:
        assert model_update(staff, fields=["first_name"], data={"first_name": "Ada"}, exclude=["password"]) == {}
    assert not [q for q in captured.captured_queries if q["sql"].startswith("UPDATE")]
    with pytest.raises(ValidationFailed) as caught:
        model_update(staff, fields=["email"], data={"email": "not an address"}, exclude=["password"])
    assert set(caught.value.details) == {"email"}
    assert Staff.objects.get(pk=staff.pk).email == email


def test_an_event_stores_its_action_name_as_plain_text():
    admin = StaffFactory(role=StaffRole.ADMIN)
    staff = StaffFactory()
    entry = events.staff_password_changed(actor=admin, staff=staff)
    assert type(entry.action) is str and entry.action == "staff.password_change"
    stored = AuditLog.objects.get()  # on PostgreSQL the instance gets its id when the commit links it
    assert (stored.action, stored.object_type, stored.object_id) == ("staff.password_change", "staff", str(staff.pk))
    assert (stored.actor_id, stored.actor_email, stored.changes) == (admin.pk, admin.email, {"password": "changed"})


def test_the_foundations_stored_action_names_do_not_change():
    # old entries keep these names: a rename would split one action's history in two
    assert sorted(events.Action) == [
        "approval.apply",
        "approval.approve",
        "approval.expire",
        "approval.reject",
        "approval.request",
        "audit.redact",
        "login.locked",
        "service_key.create",
        "service_key.revoke",
        "service_key.rotate",
        "staff.create",
        "staff.mfa_enrol",
        "staff.mfa_recovery_code_use",
        "staff.mfa_recovery_codes_regenerate",
        "staff.mfa_remove",
        "staff.mfa_reset",
        "staff.password_change",
        "staff.update",
        "webhook_delivery.resend",
        "webhook_endpoint.create",
        "webhook_endpoint.delete",
        "webhook_endpoint.rotate_secret",
        "webhook_endpoint.update",
    ]


def test_an_audit_batch_writes_its_events_in_one_insert_at_the_end():
    admin, staff = StaffFactory(role=StaffRole.ADMIN), StaffFactory()
    with CaptureQueriesContext(connection) as captured:
        with audit_batch() as entries:
            for _ in range(3):
                events.staff_password_changed(actor=admin, staff=staff)
            with audit_batch() as inner:  # a batch inside a batch adds to the outer one
                events.staff_updated(actor=admin, staff=staff, changes={})
            assert inner is entries and not AuditLog.objects.exists()
    # the audit log's rows in one statement (the chain's head row, made again after a flush, is not one of them)
    inserts = [q for q in captured.captured_queries if q["sql"].startswith('INSERT INTO "backoffice_auditlog"')]
    assert len(inserts) == 1
    assert AuditLog.objects.count() == 4


def test_an_audit_batch_that_raises_writes_nothing_and_recording_goes_back_to_one_by_one():
    staff = StaffFactory()
    with pytest.raises(RuntimeError):
        with audit_batch():
            events.staff_password_changed(actor=None, staff=staff)
            raise RuntimeError("the write failed")
    assert not AuditLog.objects.exists()
    events.staff_password_changed(actor=None, staff=staff)
    assert AuditLog.objects.filter(action="staff.password_change").count() == 1


@pytest.mark.django_db(transaction=True)
def test_fsm_move_refuses_to_run_outside_a_transaction():
    staff = StaffFactory()
    with pytest.raises(RuntimeError, match="transaction"):
        fsm_move(staff, to="x", actor=None, history=lambda move: None, event=None)
