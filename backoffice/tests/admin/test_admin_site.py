"""The admin site: e-mail sign-in, the dashboard, and staff pages for the admin role only."""

import pytest

from backoffice.audit import audit_record
from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import PASSWORD, StaffFactory

pytestmark = pytest.mark.django_db


def signed_in(client, role):
    staff = StaffFactory(role=role)
    assert client.login(username=staff.email, password=PASSWORD)
    return staff


def test_staff_sign_in_with_email_and_see_the_dashboard(client):
    staff = StaffFactory(role=StaffRole.SUPPORT, first_name="Sipho")
    r = client.post("/admin/login/?next=/admin/", {"username": staff.email.upper(), "password": PASSWORD})
    assert r.status_code == 302
    page = client.get("/admin/")
    assert page.status_code == 200
    assert b"Vikela" in page.content and b"Sipho" in page.content


def test_a_wrong_password_does_not_sign_in(client):
    staff = StaffFactory()
    r = client.post("/admin/login/", {"username": staff.email, "password": "wrong"})
    assert r.status_code == 200 and not client.session.get("_auth_user_id")


def test_admins_manage_staff_and_read_the_audit_log(client):
    signed_in(client, StaffRole.ADMIN)
    assert client.get("/admin/backoffice/staff/").status_code == 200
    assert client.get("/admin/backoffice/auditlog/").status_code == 200
    assert b"Active staff" in client.get("/admin/").content


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.FINANCE])
def test_other_roles_cannot_open_the_staff_pages(client, role):
    signed_in(client, role)
    assert client.get("/admin/backoffice/staff/").status_code == 403


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.COMPLIANCE_OFFICER, StaffRole.FINANCE])
def test_only_admins_and_mlros_open_the_audit_log(client, role):
    # contract, audit trail integrity: admins and MLROs read the audit log; the MLRO answers to the regulator
    signed_in(client, role)
    assert client.get("/admin/backoffice/auditlog/").status_code == 403
    signed_in(client, StaffRole.MLRO)
    assert client.get("/admin/backoffice/auditlog/").status_code == 200


def test_the_audit_log_is_read_only_in_the_admin(client):
    signed_in(client, StaffRole.ADMIN)
    audit_record(actor=None, action="x", object_type="y")
    entry = AuditLog.objects.get(action="x")  # on PostgreSQL the instance gets no id: the commit gives it one
    assert client.get("/admin/backoffice/auditlog/add/").status_code == 403
    assert client.post(f"/admin/backoffice/auditlog/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert AuditLog.objects.filter(pk=entry.pk).exists()


def test_adding_staff_in_the_admin_is_audited(client):
    admin = signed_in(client, StaffRole.ADMIN)
    r = client.post(
        "/admin/backoffice/staff/add/",
        {
            "email": "new@example.com",
            "first_name": "New",
            "last_name": "Person",
            "role": "finance",
            "password1": "Brand-New-Passw0rd",
            "password2": "Brand-New-Passw0rd",
        },
    )
    assert r.status_code == 302, r.content[:2000]
    entry = AuditLog.objects.get(action="staff.create")
    assert entry.actor == admin and entry.object_type == "staff"
