"""An administrator resets another member's second factor (a lost phone and lost recovery codes) only with a
second administrator's approval; the member then sets it up again at their next sign-in."""

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.auth import mfa
from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.errors import Forbidden, FourEyesRequired, ValidationFailed
from backoffice.models import ApprovalRequest, AuditLog
from backoffice.services import approvals
from backoffice.services.mfa import staff_mfa_reset_ask
from backoffice.tests.factories import StaffFactory
from backoffice.tests.mfa import enrol

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    first, second = StaffFactory(role=StaffRole.ADMIN), StaffFactory(role=StaffRole.ADMIN)
    member = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    enrol(member)
    return first, second, member


def web(staff):
    client = Client()
    client.force_login(staff)
    return client


def test_a_reset_waits_for_a_second_administrator_then_removes_the_app_and_codes(people):
    first, second, member = people
    asked = staff_mfa_reset_ask(staff=member, actor=first, reason="lost phone, checked on a video call")
    assert asked.request is not None and mfa.is_enrolled(member)  # nothing changed yet
    with pytest.raises(FourEyesRequired):
        approvals.approval_approve(request=asked.request, actor=first, reason="me again")
    approvals.approval_approve(request=asked.request, actor=second, reason="called them back")
    assert not mfa.is_enrolled(member) and mfa.recovery_codes_left(member) == 0
    entry = AuditLog.objects.get(action="staff.mfa_reset")
    assert (entry.actor_id, entry.object_id) == (second.pk, str(member.pk))
    assert ApprovalRequest.objects.get(pk=asked.request.pk).status == ApprovalStatus.APPLIED


def test_no_reset_of_ones_own_or_of_someone_without_a_second_factor_or_without_a_reason(people):
    first, _second, member = people
    with pytest.raises(ValidationFailed):
        staff_mfa_reset_ask(staff=first, actor=first, reason="x")
    with pytest.raises(ValidationFailed):
        staff_mfa_reset_ask(staff=StaffFactory(), actor=first, reason="x")
    with pytest.raises(ValidationFailed):
        staff_mfa_reset_ask(staff=member, actor=first, reason="  ")
    assert not ApprovalRequest.objects.exists()


def test_the_staff_page_asks_for_the_reset_with_a_reason_and_the_queue_applies_it(people):
    first, second, member = people
    page = reverse("admin:backoffice_staff_change", args=[member.pk])
    reset = reverse("admin:backoffice_staff_reset_two_factor", args=[member.pk])
    assert reset in web(first).get(page).content.decode()
    own = reverse("admin:backoffice_staff_change", args=[first.pk])
    assert (
        reverse("admin:backoffice_staff_reset_two_factor", args=[first.pk]) not in web(first).get(own).content.decode()
    )
    assert web(first).get(reset).status_code == 200
    assert web(first).post(reset, {"reason": ""}).status_code == 200  # the form again, with its error
    assert not ApprovalRequest.objects.exists()
    answer = web(first).post(reset, {"reason": "lost phone"})
    assert answer.status_code == 302 and answer["Location"] == page
    request = ApprovalRequest.objects.get(kind="staff.mfa_reset")
    approve = reverse("admin:backoffice_approvalrequest_approve_one", args=[request.pk])
    assert web(second).post(approve, {"reason": "called them back"}).status_code == 302
    assert not mfa.is_enrolled(member)


def test_only_administrators_reach_the_reset(people):
    _first, _second, member = people
    reset = reverse("admin:backoffice_staff_reset_two_factor", args=[member.pk])
    for role in (StaffRole.MLRO, StaffRole.COMPLIANCE_OFFICER, StaffRole.SUPPORT, StaffRole.FINANCE):
        assert web(StaffFactory(role=role)).post(reset, {"reason": "x"}).status_code == 403
    assert not ApprovalRequest.objects.exists()


def test_an_administrator_cannot_approve_the_reset_of_their_own_second_factor(people):
    first, second, _member = people
    enrol(second)
    asked = staff_mfa_reset_ask(staff=second, actor=first, reason="says the phone is lost")
    with pytest.raises(Forbidden):
        approvals.approval_approve(request=asked.request, actor=second, reason="yes, mine")
    assert mfa.is_enrolled(second)
    assert ApprovalRequest.objects.get(pk=asked.request.pk).status == ApprovalStatus.PENDING
    third = StaffFactory(role=StaffRole.ADMIN)
    approvals.approval_approve(request=asked.request, actor=third, reason="called them back")
    assert not mfa.is_enrolled(second)
