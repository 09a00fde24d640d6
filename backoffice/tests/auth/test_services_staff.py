import pytest
from django.core.management import CommandError, call_command

from backoffice.models import AuditLog, Staff

pytestmark = pytest.mark.django_db
PW1, PW2 = "First-Passw0rd!x", "Second-Passw0rd!y"


def test_create_staff_creates_then_updates_the_same_account():
    call_command("create_staff", "--email", "Ada@Example.com", "--password", PW1, "--role", "support")
    call_command(
        "create_staff",
        "--email",
        "ada@example.com",
        "--password",
        PW2,
        "--role",
        "finance",
        "--first-name",
        "Ada",
        "--last-name",
        "Lovelace",
    )
    staff = Staff.objects.get()
    assert staff.email == "ada@example.com" and staff.role == "finance"
    assert (staff.first_name, staff.last_name) == ("Ada", "Lovelace")
    assert staff.check_password(PW2) and not staff.check_password(PW1)
    assert list(AuditLog.objects.order_by("id").values_list("action", flat=True)) == ["staff.create", "staff.update"]


def test_create_staff_refuses_an_unknown_role():
    with pytest.raises(CommandError):
        call_command("create_staff", "--email", "a@example.com", "--password", PW1, "--role", "boss")


def test_create_staff_refuses_a_weak_password_and_writes_nothing():
    with pytest.raises(CommandError, match="password"):
        call_command("create_staff", "--email", "a@example.com", "--password", "123", "--role", "support")
    assert not Staff.objects.exists()


def test_createsuperuser_makes_an_admin():
    Staff.objects.create_superuser("root@example.com", PW1, first_name="R", last_name="T")
    assert Staff.objects.get().role == "admin"
