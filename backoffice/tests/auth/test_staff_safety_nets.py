"""Staff safety nets: the last active admin stays, nobody removes their own admin role, staff are never deleted,
and every staff edit records old and new values."""

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.errors import DomainError
from backoffice.models import AuditLog, Staff
from backoffice.services import LastAdministrator, OwnAdminRole, staff_admin_save
from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import PASSWORD, StaffFactory

pytestmark = pytest.mark.django_db


def edit(staff_id, **fields) -> Staff:
    staff = Staff.objects.get(pk=staff_id)
    for name, value in fields.items():
        setattr(staff, name, value)
    return staff


def test_the_last_active_admin_cannot_be_demoted_or_deactivated():
    admin = StaffFactory(role=StaffRole.ADMIN)
    other = StaffFactory(role=StaffRole.ADMIN, is_active=False)  # an inactive admin does not count
    actor = StaffFactory(role=StaffRole.SUPPORT)
    for change in ({"role": StaffRole.MLRO}, {"is_active": False}):
        with pytest.raises(LastAdministrator):
            staff_admin_save(staff=edit(admin.pk, **change), actor=actor)
    assert Staff.objects.get(pk=admin.pk).role == StaffRole.ADMIN and other.role == StaffRole.ADMIN


def test_an_admin_may_be_demoted_while_another_remains():
    first, second = StaffFactory(role=StaffRole.ADMIN), StaffFactory(role=StaffRole.ADMIN)
    staff_admin_save(staff=edit(first.pk, role=StaffRole.FINANCE), actor=second)
    assert Staff.objects.get(pk=first.pk).role == StaffRole.FINANCE
    with pytest.raises(LastAdministrator):
        staff_admin_save(staff=edit(second.pk, role=StaffRole.FINANCE), actor=first)


def test_nobody_takes_away_their_own_admin_role_or_deactivates_themselves():
    me, _other = StaffFactory(role=StaffRole.ADMIN), StaffFactory(role=StaffRole.ADMIN)
    for change in ({"role": StaffRole.SUPPORT}, {"is_active": False}):
        with pytest.raises(OwnAdminRole):
            staff_admin_save(staff=edit(me.pk, **change), actor=me)


def test_create_staff_cannot_demote_the_last_admin():
    call_command("create_staff", "--email", "root@example.com", "--password", PASSWORD, "--role", "admin")
    with pytest.raises(CommandError, match="last active administrator"):
        call_command("create_staff", "--email", "root@example.com", "--password", PASSWORD, "--role", "support")
    assert Staff.objects.get(email="root@example.com").role == StaffRole.ADMIN


def test_the_admin_site_refuses_the_demotion_with_a_message_and_offers_no_delete():
    admin = StaffFactory(role=StaffRole.ADMIN)
    browser = Client()
    browser.force_login(admin)
    url = f"/admin/backoffice/staff/{admin.pk}/change/"
    form = {"email": admin.email, "first_name": "A", "last_name": "B", "role": "support", "is_active": "on"}
    page = browser.post(url, form, follow=True).content.decode()
    assert "own admin role" in page
    assert Staff.objects.get(pk=admin.pk).role == StaffRole.ADMIN
    assert browser.get(f"/admin/backoffice/staff/{admin.pk}/delete/").status_code == 403
    assert "delete_selected" not in browser.get("/admin/backoffice/staff/").content.decode()


def test_staff_edits_record_old_and_new_values():
    admin = StaffFactory(role=StaffRole.ADMIN)
    target = StaffFactory(role=StaffRole.SUPPORT, first_name="Old")
    browser = Client()
    browser.force_login(admin)
    form = {
        "email": target.email,
        "first_name": "New",
        "last_name": target.last_name,
        "role": "mlro",
        "is_active": "on",
    }
    assert browser.post(f"/admin/backoffice/staff/{target.pk}/change/", form).status_code == 302
    entry = AuditLog.objects.get(action="staff.update", object_id=str(target.pk))
    assert entry.changes == {
        "first_name": {"from": "Old", "to": "New"},
        "role": {"from": "support", "to": "mlro"},
    }


def test_create_staff_records_old_and_new_values_and_a_rerun_records_nothing():
    args = ["create_staff", "--email", "ada@example.com", "--password", PASSWORD]
    call_command(*args, "--role", "support")
    call_command(*args, "--role", "support")
    call_command(*args, "--role", "finance")
    entries = list(AuditLog.objects.order_by("id"))
    assert [e.action for e in entries] == ["staff.create", "staff.update"]
    assert entries[1].changes == {"role": {"from": "support", "to": "finance"}}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_admins_demoting_each_other_at_once_leave_one_admin(postgres_only):
    first, second = StaffFactory(role=StaffRole.ADMIN), StaffFactory(role=StaffRole.ADMIN)
    pairs = [(first.pk, second.pk), (second.pk, first.pk)]
    outcomes = run_in_threads(
        2, lambda i: staff_admin_save(staff=edit(pairs[i][0], role=StaffRole.SUPPORT), actor=Staff(pk=pairs[i][1]))
    )
    assert sum(isinstance(o, LastAdministrator) for o in outcomes) == 1
    assert not [o for o in outcomes if isinstance(o, Exception) and not isinstance(o, DomainError)]
    assert Staff.objects.filter(role=StaffRole.ADMIN, is_active=True).count() == 1
