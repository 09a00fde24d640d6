"""Access one administrator gives in the admin site waits for a second (STAFF_FOUR_EYES): a new account, a role
that can do more, re-activation, a password set for someone else. Otherwise one administrator could make a second
account and approve with it everything that needs two people."""

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.errors import Conflict, Forbidden, FourEyesRequired
from backoffice.models import ApprovalRequest, AuditLog, Staff
from backoffice.services import approvals
from backoffice.services.staff_access import ACCESS_KIND
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Brand-New-Passw0rd-2026"


@pytest.fixture
def admins(settings):
    settings.STAFF_FOUR_EYES = True
    return StaffFactory(role=StaffRole.ADMIN), StaffFactory(role=StaffRole.ADMIN)


def web(staff):
    client = Client()
    client.force_login(staff)
    return client


def add(client, email="new@example.com", role=StaffRole.ADMIN):
    return client.post(
        reverse("admin:backoffice_staff_add"),
        {
            "email": email,
            "first_name": "New",
            "last_name": "Person",
            "role": role,
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
        follow=True,
    )


def edit(client, staff, **changes):
    fields = {
        "email": staff.email,
        "first_name": staff.first_name,
        "last_name": staff.last_name,
        "role": staff.role,
        "is_active": "on" if staff.is_active else "",
        **changes,
    }
    if not fields["is_active"]:
        del fields["is_active"]
    return client.post(reverse("admin:backoffice_staff_change", args=[staff.pk]), fields, follow=True)


def signs_in(email, password) -> bool:
    return Client().login(username=email, password=password)


def test_a_new_account_is_inactive_until_a_second_administrator_approves_it(admins):
    first, second = admins
    page = add(web(first))
    assert "Another administrator approves it" in page.content.decode()
    assert "added successfully" not in page.content.decode()  # it is not usable yet
    made = Staff.objects.get(email="new@example.com")
    assert not made.is_active and made.role == StaffRole.ADMIN
    assert not signs_in(made.email, NEW_PASSWORD)  # the maker cannot use it to approve anything yet
    request = ApprovalRequest.objects.get(kind=ACCESS_KIND, target_id=str(made.pk))
    assert page.redirect_chain[-1][0] == reverse("admin:backoffice_approvalrequest_change", args=[request.pk])
    detail = web(second).get(reverse("admin:backoffice_approvalrequest_change", args=[request.pk])).content.decode()
    assert "A new staff account, new@example.com" in detail and "role: admin<" in detail
    with pytest.raises(FourEyesRequired):
        approvals.approval_approve(request=request, actor=first, reason="mine")
    approvals.approval_approve(request=request, actor=second, reason="met them, ID checked")
    made.refresh_from_db()
    assert made.is_active and signs_in(made.email, NEW_PASSWORD)
    assert AuditLog.objects.filter(action="staff.update", object_id=str(made.pk), actor=second).exists()


def test_raising_a_role_waits_while_names_and_lowering_apply_at_once(admins):
    first, second = admins
    member = StaffFactory(role=StaffRole.SUPPORT, first_name="Old")
    edit(web(first), member, role=StaffRole.MLRO, first_name="Thandi")
    member.refresh_from_db()
    assert (member.role, member.first_name) == (StaffRole.SUPPORT, "Thandi")
    request = ApprovalRequest.objects.get(kind=ACCESS_KIND, status=ApprovalStatus.PENDING)
    assert request.payload["grants"] == {"role": {"from": "support", "to": "mlro"}}
    detail = web(second).get(reverse("admin:backoffice_approvalrequest_change", args=[request.pk])).content.decode()
    assert "role: support → mlro" in detail
    # asking again while one waits is refused, and nothing of that edit is kept
    page = edit(web(first), member, role=StaffRole.ADMIN, first_name="Other").content.decode()
    assert "already waiting" in page
    member.refresh_from_db()
    assert member.first_name == "Thandi"
    approvals.approval_approve(request=request, actor=second, reason="new MLRO, board minute 12")
    member.refresh_from_db()
    assert member.role == StaffRole.MLRO
    edit(web(first), member, role=StaffRole.COMPLIANCE_OFFICER)  # less than before: no second person
    member.refresh_from_db()
    assert member.role == StaffRole.COMPLIANCE_OFFICER
    assert not ApprovalRequest.objects.filter(status=ApprovalStatus.PENDING).exists()


def test_a_sideways_role_that_brings_a_new_capability_waits(admins):
    first, _second = admins
    member = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    edit(web(first), member, role=StaffRole.FINANCE)  # finance approves credits, which compliance may not
    member.refresh_from_db()
    assert member.role == StaffRole.COMPLIANCE_OFFICER
    assert ApprovalRequest.objects.filter(kind=ACCESS_KIND, status=ApprovalStatus.PENDING).count() == 1


def test_deactivating_applies_at_once_and_re_activating_waits(admins):
    first, second = admins
    member = StaffFactory(role=StaffRole.FINANCE)
    edit(web(first), member, is_active="")
    member.refresh_from_db()
    assert not member.is_active and not ApprovalRequest.objects.exists()
    edit(web(first), member, is_active="on")
    member.refresh_from_db()
    assert not member.is_active
    request = ApprovalRequest.objects.get(kind=ACCESS_KIND)
    approvals.approval_approve(request=request, actor=second, reason="back from leave")
    member.refresh_from_db()
    assert member.is_active


def test_a_password_set_for_someone_else_deactivates_the_account_until_approved(admins):
    first, second = admins
    url = f"/admin/backoffice/staff/{second.pk}/password/"
    page = web(first).post(
        url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}, follow=True
    )
    assert f"until then {second.email} cannot sign in" in page.content.decode()
    second.refresh_from_db()
    assert not second.is_active and second.check_password(NEW_PASSWORD)
    assert not signs_in(second.email, NEW_PASSWORD)  # whoever set it cannot sign in as them
    request = ApprovalRequest.objects.get(kind=ACCESS_KIND, target_id=str(second.pk))
    third = StaffFactory(role=StaffRole.ADMIN)
    detail = web(third).get(reverse("admin:backoffice_approvalrequest_change", args=[request.pk])).content.decode()
    assert "check with the person" in detail
    approvals.approval_approve(request=request, actor=third, reason="called them; they asked for it")
    assert signs_in(second.email, NEW_PASSWORD)


def test_ones_own_password_applies_at_once(admins):
    first, _second = admins
    url = f"/admin/backoffice/staff/{first.pk}/password/"
    web(first).post(url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"})
    first.refresh_from_db()
    assert first.is_active and first.check_password(NEW_PASSWORD) and not ApprovalRequest.objects.exists()


def test_the_member_never_approves_their_own_access_and_a_stale_request_applies_nothing(admins):
    first, second = admins
    edit(web(first), second, is_superuser="on")
    request = ApprovalRequest.objects.get(kind=ACCESS_KIND)
    with pytest.raises(Forbidden):
        approvals.approval_approve(request=request, actor=second, reason="me")
    second.refresh_from_db()
    assert not second.is_superuser
    member = StaffFactory(role=StaffRole.SUPPORT)
    edit(web(first), member, role=StaffRole.MLRO)
    stale = ApprovalRequest.objects.get(kind=ACCESS_KIND, target_id=str(member.pk))
    Staff.objects.filter(pk=member.pk).update(role=StaffRole.FINANCE)  # changed some other way meanwhile
    with pytest.raises(Conflict, match="changed since"):
        approvals.approval_approve(request=stale, actor=second, reason="ok")
    member.refresh_from_db()
    assert member.role == StaffRole.FINANCE
    assert ApprovalRequest.objects.get(pk=stale.pk).status == ApprovalStatus.PENDING


def test_switched_off_every_change_applies_at_once(settings):
    settings.STAFF_FOUR_EYES = False
    first = StaffFactory(role=StaffRole.ADMIN)
    add(web(first), email="direct@example.com")
    assert Staff.objects.get(email="direct@example.com").is_active
    assert signs_in("direct@example.com", NEW_PASSWORD) and not ApprovalRequest.objects.exists()


def test_a_password_set_while_a_request_for_the_member_waits_is_refused_with_a_message(admins):
    first, _second = admins
    member = StaffFactory(role=StaffRole.SUPPORT)
    edit(web(first), member, role=StaffRole.MLRO)
    url = f"/admin/backoffice/staff/{member.pk}/password/"
    page = web(first).post(
        url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}, follow=True
    )
    assert page.status_code == 200 and "already waiting" in page.content.decode()
    member.refresh_from_db()
    assert member.is_active and not member.check_password(NEW_PASSWORD)
