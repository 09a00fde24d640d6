"""Issue 29 on AML rules: under four eyes, creating a rule already active, switching off a HIGH or CRITICAL rule and
snoozing one need a second person (API, admin, forged posts); snoozes have a maximum length; with four eyes off the
interface's immediate answers hold. Proposals also wait in the one approval queue."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.errors import FourEyesRequired
from backoffice.models import ApprovalRequest
from backoffice.selectors.approvals import approval_view, approvals_waiting_for
from backoffice.services.approvals import approval_approve, approval_reject
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.governance import RuleProposal, RuleSnooze
from compliance.aml.models.rules import AMLRule
from compliance.aml.tests.rules.helpers import rule_body
from kyc.tests.factories import PlatformUserFactory

URL = "/api/v1/admin/aml/rules"


@pytest.fixture
def four_eyes(settings):
    settings.RULE_FOUR_EYES = True


def snooze_body(user, days=5):
    expires = (timezone.now() + dt.timedelta(days=days)).isoformat()
    return {"userId": str(user.pk), "expiresAt": expires, "reason": "Known payroll pattern"}


def test_creating_an_active_rule_creates_it_off_and_proposes_switching_it_on(four_eyes, mlro, staff_client):
    client, maker = mlro
    r = client.post(URL, rule_body(severity="CRITICAL", isActive=True, actions={"block": True}), format="json")
    assert r.status_code == 201, r.json()
    data = r.json()["data"]
    assert data["isActive"] is False and data["proposal"]["changes"] == {"isActive": True}
    rule = AMLRule.objects.get(pk=data["id"])
    assert rule.is_active is False
    # the proposal waits in the one approval queue too, never for its proposer
    approval = ApprovalRequest.objects.get(kind="compliance.rule_change", target_id=data["proposal"]["id"])
    assert list(approvals_waiting_for(maker)) == []
    checker = StaffFactory(role=StaffRole.MLRO)
    assert list(approvals_waiting_for(checker)) == [approval]
    assert approval_view(approval).changes == [f"Rule {rule.rule_id} (CRITICAL): active: no → yes"]
    with pytest.raises(FourEyesRequired):
        approval_approve(request=approval, actor=maker, reason="mine")
    approval_approve(request=approval, actor=checker, reason="Reviewed the list")
    rule.refresh_from_db()
    assert rule.is_active is True
    proposal = RuleProposal.objects.get(pk=data["proposal"]["id"])
    assert (proposal.status, proposal.decided_by) == ("APPROVED", checker)


def test_without_four_eyes_a_rule_asked_for_active_is_active_at_once(mlro):
    client, _ = mlro
    r = client.post(URL, rule_body(severity="CRITICAL", isActive=True), format="json")
    assert r.status_code == 201 and r.json()["data"]["isActive"] is True and "proposal" not in r.json()["data"]


@pytest.mark.parametrize("severity", ["HIGH", "CRITICAL"])
def test_switching_off_a_grave_rule_is_a_proposal_by_toggle_and_by_update(four_eyes, mlro, make_rule, severity):
    client, _ = mlro
    rule = make_rule(isActive=True, severity=severity)
    r = client.put(f"{URL}/{rule['ruleId']}/toggle", {"reason": "Too noisy"}, format="json")
    assert r.status_code == 202 and r.json()["data"]["proposal"]["changes"] == {"isActive": False}
    r = client.put(f"{URL}/{rule['ruleId']}", {"isActive": False}, format="json")
    assert r.status_code == 202
    assert AMLRule.objects.get(pk=rule["id"]).is_active is True


def test_switching_off_a_medium_rule_and_any_rule_without_four_eyes_is_immediate(settings, mlro, make_rule):
    client, _ = mlro
    grave = make_rule(isActive=True, severity="CRITICAL")
    r = client.put(f"{URL}/{grave['ruleId']}/toggle", {}, format="json")
    assert r.status_code == 200 and r.json()["data"]["isActive"] is False
    settings.RULE_FOUR_EYES = True
    medium = make_rule(isActive=True, severity="MEDIUM")
    r = client.put(f"{URL}/{medium['ruleId']}/toggle", {}, format="json")
    assert r.status_code == 200 and r.json()["data"]["isActive"] is False


def test_the_admin_bulk_toggle_proposes_switching_off_a_critical_rule(four_eyes, make_rule):
    rule = make_rule(isActive=True, severity="CRITICAL")
    staff = StaffFactory(role=StaffRole.MLRO)
    web = Client()
    web.force_login(staff)
    body = {
        "action": "toggle_selected",
        "_selected_action": [rule["id"]],
        "apply": "1",
        "reason": "Too noisy",
        "confirm_grave": "on",
    }
    page = web.post("/admin/compliance/amlrule/", body, follow=True).content.decode()
    assert "Proposed (waiting for a second person)" in page
    assert AMLRule.objects.get(pk=rule["id"]).is_active is True
    # the proposer's forged approval in the queue changes nothing
    approval = ApprovalRequest.objects.get(kind="compliance.rule_change")
    change_url = reverse("admin:backoffice_approvalrequest_change", args=[approval.pk])
    approve_url = change_url.replace("/change/", "/approve/")
    web.post(approve_url, {"reason": "my own"})
    assert AMLRule.objects.get(pk=rule["id"]).is_active is True
    # a compliance officer cannot decide it either
    officer = Client()
    officer.force_login(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    assert officer.post(approve_url, {"reason": "x"}).status_code in (403, 404)
    assert AMLRule.objects.get(pk=rule["id"]).is_active is True


def test_a_proposal_decided_through_its_own_endpoint_settles_its_approval_request(four_eyes, mlro, staff_client):
    client, _ = mlro
    rule = AMLRule.objects.get(pk=client.post(URL, rule_body(isActive=True), format="json").json()["data"]["id"])
    proposal = RuleProposal.objects.get(rule=rule)
    checker_client, checker = staff_client(StaffRole.MLRO)
    r = checker_client.post(f"{URL}/{rule.rule_id}/proposals/{proposal.pk}/reject", {"reason": "No"}, format="json")
    assert r.status_code == 200
    approval = ApprovalRequest.objects.get(kind="compliance.rule_change")
    assert (approval.status, approval.decided_by) == (ApprovalStatus.REJECTED, checker)


def test_rejected_from_the_queue_the_proposal_is_rejected(four_eyes, mlro):
    client, _ = mlro
    data = client.post(URL, rule_body(isActive=True), format="json").json()["data"]
    approval = ApprovalRequest.objects.get(kind="compliance.rule_change")
    approval_reject(request=approval, actor=StaffFactory(role=StaffRole.ADMIN), reason="Not now")
    assert RuleProposal.objects.get(pk=data["proposal"]["id"]).status == "REJECTED"
    assert AMLRule.objects.get(pk=data["id"]).is_active is False


def test_a_snooze_longer_than_the_maximum_is_refused_with_or_without_four_eyes(settings, mlro, make_rule):
    client, _ = mlro
    settings.RULE_SNOOZE_MAX_DAYS = 30
    rule = make_rule(isActive=True, severity="CRITICAL")
    user = PlatformUserFactory()
    for four_eyes in (False, True):
        settings.RULE_FOUR_EYES = four_eyes
        body = {**snooze_body(user), "expiresAt": "2099-01-01T00:00:00Z"}
        r = client.post(f"{URL}/{rule['ruleId']}/snoozes", body, format="json")
        assert r.status_code == 400 and "expiresAt" in r.json()["error"]["details"], r.json()
    assert not RuleSnooze.objects.exists() and not ApprovalRequest.objects.exists()


def test_snoozing_a_grave_rule_under_four_eyes_waits_for_a_second_person(four_eyes, mlro, make_rule):
    client, maker = mlro
    rule = make_rule(isActive=True, severity="CRITICAL")
    user = PlatformUserFactory()
    r = client.post(f"{URL}/{rule['ruleId']}/snoozes", snooze_body(user), format="json")
    assert r.status_code == 202, r.json()
    assert r.json()["message"] == "Snooze awaiting approval"
    assert r.json()["data"]["approvalRequest"]["kind"] == "compliance.rule_snooze"
    assert not RuleSnooze.objects.exists()
    approval = ApprovalRequest.objects.get()
    with pytest.raises(FourEyesRequired):
        approval_approve(request=approval, actor=maker, reason="mine")
    approval_approve(request=approval, actor=StaffFactory(role=StaffRole.MLRO), reason="Payroll confirmed")
    snooze = RuleSnooze.objects.get()
    assert snooze.in_force and snooze.created_by == maker and snooze.user == user


def test_snoozing_a_medium_rule_is_immediate_even_under_four_eyes(four_eyes, mlro, make_rule):
    client, _ = mlro
    rule = make_rule(isActive=True, severity="MEDIUM")
    r = client.post(f"{URL}/{rule['ruleId']}/snoozes", snooze_body(PlatformUserFactory()), format="json")
    assert r.status_code == 201 and RuleSnooze.objects.count() == 1


def test_the_admin_snooze_form_for_a_critical_rule_asks_for_a_second_person(four_eyes, make_rule):
    rule = make_rule(isActive=True, severity="CRITICAL")
    user = PlatformUserFactory()
    web = Client()
    web.force_login(StaffFactory(role=StaffRole.MLRO))
    expires = (dt.datetime.now(dt.UTC) + dt.timedelta(days=10)).strftime("%Y-%m-%d")
    body = {
        "rule": rule["id"],
        "customer": user.phone_number,
        "expires_at_0": expires,
        "expires_at_1": "12:00:00",
        "reason": "Payroll",
    }
    page = web.post("/admin/compliance/rulesnooze/add/", body, follow=True).content.decode()
    assert "It waits for another MLRO or admin" in page
    assert not RuleSnooze.objects.exists()
    assert ApprovalRequest.objects.get().kind == "compliance.rule_snooze"
    # until 2099 from the admin form: refused outright
    page = web.post("/admin/compliance/rulesnooze/add/", {**body, "expires_at_0": "2099-01-01"}, follow=True)
    assert "RULE_SNOOZE_MAX_DAYS" in page.content.decode()
    assert ApprovalRequest.objects.count() == 1
