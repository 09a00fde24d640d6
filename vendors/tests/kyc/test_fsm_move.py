"""``backoffice.services.fsm_move`` on the lowest state machine there is, the vendor's KYC status.

The foundation has no state machine of its own; these tests pin the toolkit's order of work and its refusals,
which every service moving a state machine relies on.
"""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from backoffice.choices import StaffRole
from backoffice.errors import Conflict, Forbidden, InvalidTransition
from backoffice.models import AuditLog
from backoffice.services import Move, fsm_move
from backoffice.tests.factories import StaffFactory
from vendors import events
from vendors.choices import VendorKycStatus as S
from vendors.models import Vendor, VendorKycChange
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def officer():
    return StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)


def move(vendor, to, **options):
    options.setdefault("history", VendorKycChange)
    options.setdefault("event", events.kyc_status_moved)
    return fsm_move(vendor, to=to, field="kyc_status", **options)


def stored_status(vendor) -> str:
    return Vendor.objects.filter(pk=vendor.pk).values_list("kyc_status", flat=True).get()


def test_a_move_saves_the_state_and_leaves_one_history_row_and_one_audit_entry(officer):
    vendor = VendorFactory()
    done = move(vendor, S.DOCUMENTS_SUBMITTED, actor=officer, note="Uploaded taxClearance")
    assert isinstance(done, Move) and (done.source, done.target) == (S.PENDING, S.DOCUMENTS_SUBMITTED)
    assert done.instance.kyc_status == S.DOCUMENTS_SUBMITTED == stored_status(vendor)
    row = VendorKycChange.objects.get(vendor=vendor)
    assert done.history == row
    assert (row.from_status, row.to_status, row.actor, row.note) == (
        S.PENDING,
        S.DOCUMENTS_SUBMITTED,
        officer,
        "Uploaded taxClearance",
    )
    entry = AuditLog.objects.get()
    assert (entry.action, entry.object_type, entry.object_id, entry.actor) == (
        "vendor.kyc.status",
        "vendor",
        str(vendor.pk),
        officer,
    )
    assert entry.changes == {"from": S.PENDING, "to": S.DOCUMENTS_SUBMITTED, "note": "Uploaded taxClearance"}


def test_a_move_outside_the_table_is_a_409_naming_it_and_writes_nothing(officer):
    vendor = VendorFactory()
    with pytest.raises(InvalidTransition) as caught:
        move(vendor, S.VERIFIED, actor=officer)
    assert (caught.value.status, caught.value.code) == (409, "INVALID_TRANSITION")
    assert caught.value.message == "Cannot move vendor from PENDING to VERIFIED"  # the API's, with the codes
    assert caught.value.said == "Cannot move vendor from pending to verified"  # the admin site's, in words
    with pytest.raises(InvalidTransition, match="^Cannot move vendor KYC from PENDING to VERIFIED$"):
        move(vendor, S.VERIFIED, actor=officer, label="vendor KYC")
    with pytest.raises(InvalidTransition, match="^Vendor is PENDING, not UNDER_REVIEW$"):
        move(vendor, S.VERIFIED, actor=officer, refused="Vendor is {source}, not UNDER_REVIEW")
    assert stored_status(vendor) == S.PENDING
    assert not VendorKycChange.objects.exists() and not AuditLog.objects.exists()


def test_the_check_runs_on_a_move_of_the_table_before_the_transition(officer):
    vendor = VendorFactory()
    seen = []

    def refuse(m):
        seen.append(m.instance.kyc_status)
        raise Forbidden("Your role does not allow this move")

    with pytest.raises(InvalidTransition):
        move(vendor, S.VERIFIED, actor=officer, check=refuse)
    assert seen == []  # outside the table it is a 409 whoever asks: the role is not even looked at
    with pytest.raises(Forbidden):
        move(vendor, S.DOCUMENTS_SUBMITTED, actor=officer, check=refuse)
    assert seen == [S.PENDING]
    assert stored_status(vendor) == S.PENDING and not VendorKycChange.objects.exists()


def test_hooks_run_in_order_around_the_save_and_before_the_history_and_the_event(officer):
    vendor = VendorFactory()
    order = []

    def before_save(m):
        order.append(("before_save", m.instance.kyc_status, stored_status(vendor)))

    def after_save(m):
        order.append(("after_save", m.instance.kyc_status, stored_status(vendor)))

    def history(m):
        order.append(("history", VendorKycChange.objects.count()))
        return VendorKycChange.objects.create(vendor=m.instance, from_status=m.source, to_status=m.target)

    def event(m):
        order.append(("event", m.history.to_status))
        return events.kyc_status_moved(m)

    move(
        vendor,
        S.DOCUMENTS_SUBMITTED,
        actor=officer,
        before_save=before_save,
        after_save=after_save,
        history=history,
        event=event,
    )
    assert order == [
        ("before_save", S.DOCUMENTS_SUBMITTED, S.PENDING),
        ("after_save", S.DOCUMENTS_SUBMITTED, S.DOCUMENTS_SUBMITTED),
        ("history", 0),
        ("event", S.DOCUMENTS_SUBMITTED),
    ]


def test_the_row_is_read_again_under_its_lock_so_a_stale_copy_moves_from_the_stored_state(officer):
    vendor = VendorFactory()
    Vendor.objects.filter(pk=vendor.pk).update(kyc_status=S.DOCUMENTS_SUBMITTED)  # another writer, meanwhile
    with CaptureQueriesContext(connection) as captured:
        done = move(vendor, S.UNDER_REVIEW, actor=officer, update_fields=["kyc_decision_reason"])
    assert done.instance is not vendor and done.source == S.DOCUMENTS_SUBMITTED
    assert stored_status(vendor) == S.UNDER_REVIEW
    update = next(q["sql"] for q in captured.captured_queries if q["sql"].startswith("UPDATE"))
    # update_fields gains the state field and updated_at, and nothing else is written
    assert '"kyc_status"' in update and '"updated_at"' in update and '"business_name"' not in update


def test_an_unlocked_stale_copy_is_a_409_instead_of_overwriting_the_other_move(officer):
    vendor = VendorFactory()
    Vendor.objects.filter(pk=vendor.pk).update(kyc_status=S.UNDER_REVIEW)  # not through the toolkit
    with pytest.raises(Conflict) as caught, transaction.atomic():
        move(vendor, S.DOCUMENTS_SUBMITTED, actor=officer, lock=False)
    assert caught.value.message == "The vendor was moved by someone else meanwhile; reload it and try again"
    assert stored_status(vendor) == S.UNDER_REVIEW and not VendorKycChange.objects.exists()


def test_a_system_move_has_no_actor_and_a_move_without_an_event_no_audit_entry():
    vendor = VendorFactory()
    move(vendor, S.DOCUMENTS_SUBMITTED, actor=None, event=None, note="Expired: taxClearance (2024-01-01)")
    row = VendorKycChange.objects.get()
    assert row.actor is None and row.note == "Expired: taxClearance (2024-01-01)"
    assert not AuditLog.objects.exists()
