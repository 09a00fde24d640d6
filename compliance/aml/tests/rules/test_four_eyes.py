"""Four eyes on rule changes (contract: Rule governance): proposals, approval, refusals."""

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from compliance.aml.models.governance import RuleProposal, RuleProposalEvent
from compliance.aml.models.rules import AMLRule

URL = "/api/v1/admin/aml/rules"
CONDITIONS = {"ruleType": "threshold", "thresholdAmount": 4000}


@pytest.fixture
def four_eyes(settings):
    settings.RULE_FOUR_EYES = True


@pytest.fixture
def active_rule(make_rule):
    return make_rule(isActive=True)


def propose(client, rule, body):
    r = client.put(f"{URL}/{rule['ruleId']}", body, format="json")
    assert r.status_code == 202, r.json()
    assert r.json()["success"] is True and r.json()["message"] == "Change proposed"
    return r.json()["data"]["proposal"]


def test_without_four_eyes_an_update_applies_at_once_and_keeps_its_reason(mlro, active_rule):
    client, staff = mlro
    r = client.put(f"{URL}/{active_rule['ruleId']}", {"conditions": CONDITIONS, "reason": "Q3 review"}, format="json")
    assert r.status_code == 200 and r.json()["data"]["conditions"] == CONDITIONS
    versions = client.get(f"{URL}/{active_rule['ruleId']}/versions").json()["data"]
    assert versions[0]["version"] == 2 and versions[0]["reason"] == "Q3 review"
    assert versions[0]["proposedBy"]["id"] == str(staff.pk) and versions[0]["approvedBy"] is None


def test_a_change_to_an_active_rule_is_a_proposal_that_changes_nothing(four_eyes, mlro, active_rule):
    client, staff = mlro
    proposal = propose(client, active_rule, {"conditions": CONDITIONS, "severity": "HIGH", "reason": "Lower limit"})
    assert proposal["status"] == "PENDING" and proposal["baseVersion"] == 1
    assert proposal["changes"] == {"conditions": CONDITIONS, "severity": "HIGH"}
    assert proposal["reason"] == "Lower limit" and proposal["proposedBy"]["id"] == str(staff.pk)
    rule = AMLRule.objects.get(pk=active_rule["id"])
    assert rule.version == 1 and rule.conditions == active_rule["conditions"] and rule.severity == "MEDIUM"
    listed = client.get(f"{URL}/{active_rule['ruleId']}/proposals").json()["data"]
    assert [p["id"] for p in listed] == [proposal["id"]]
    assert AuditLog.objects.filter(action="aml_rule.propose", object_id=active_rule["id"]).exists()


def test_another_mlro_approves_and_the_version_names_both(four_eyes, mlro, staff_client, active_rule):
    client, proposer = mlro
    proposal = propose(client, active_rule, {"conditions": CONDITIONS, "reason": "Lower limit"})
    approver_client, approver = staff_client(StaffRole.MLRO)
    r = approver_client.post(f"{URL}/{active_rule['ruleId']}/proposals/{proposal['id']}/approve", {}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["data"]["status"] == "APPROVED" and r.json()["data"]["version"] == 2
    assert r.json()["data"]["rule"]["conditions"] == CONDITIONS
    rule = AMLRule.objects.get(pk=active_rule["id"])
    assert rule.version == 2 and rule.conditions == CONDITIONS
    newest = client.get(f"{URL}/{active_rule['ruleId']}/versions").json()["data"][0]
    assert newest["version"] == 2 and newest["conditions"] == CONDITIONS and newest["reason"] == "Lower limit"
    assert newest["proposedBy"]["id"] == str(proposer.pk) and newest["approvedBy"]["id"] == str(approver.pk)
    assert newest["approvedAt"]
    assert newest["changes"] == [{"field": "conditions.thresholdAmount", "from": 50000, "to": 4000}]
    moves = list(RuleProposalEvent.objects.filter(proposal_id=proposal["id"]).values_list("from_status", "to_status"))
    assert moves == [("", "PENDING"), ("PENDING", "APPROVED")]


def test_the_proposer_cannot_decide_their_own_change(four_eyes, mlro, active_rule):
    client, _ = mlro
    proposal = propose(client, active_rule, {"severity": "CRITICAL"})
    for verb, body in (("approve", {}), ("reject", {"reason": "changed my mind"})):
        r = client.post(f"{URL}/{active_rule['ruleId']}/proposals/{proposal['id']}/{verb}", body, format="json")
        assert r.status_code == 403 and r.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    assert RuleProposal.objects.get(pk=proposal["id"]).status == "PENDING"
    assert AMLRule.objects.get(pk=active_rule["id"]).severity == "MEDIUM"


def test_an_officer_cannot_decide(four_eyes, mlro, officer, active_rule):
    proposal = propose(mlro[0], active_rule, {"severity": "CRITICAL"})
    r = officer[0].post(f"{URL}/{active_rule['ruleId']}/proposals/{proposal['id']}/approve", {}, format="json")
    assert r.status_code == 403
    assert officer[0].get(f"{URL}/{active_rule['ruleId']}/proposals").status_code == 200


def test_reject_needs_a_reason_and_leaves_the_rule(four_eyes, mlro, staff_client, active_rule):
    proposal = propose(mlro[0], active_rule, {"severity": "CRITICAL"})
    admin, admin_staff = staff_client(StaffRole.ADMIN)
    url = f"{URL}/{active_rule['ruleId']}/proposals/{proposal['id']}/reject"
    assert admin.post(url, {}, format="json").status_code == 400
    r = admin.post(url, {"reason": "Too noisy"}, format="json")
    assert r.status_code == 200 and r.json()["data"]["status"] == "REJECTED"
    assert r.json()["data"]["decisionReason"] == "Too noisy"
    assert r.json()["data"]["decidedBy"]["id"] == str(admin_staff.pk)
    assert AMLRule.objects.get(pk=active_rule["id"]).severity == "MEDIUM"
    again = admin.post(url.replace("reject", "approve"), {}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "INVALID_TRANSITION"


def test_approving_a_proposal_made_on_an_older_version_is_a_conflict(four_eyes, mlro, staff_client, active_rule):
    client, _ = mlro
    first = propose(client, active_rule, {"severity": "HIGH"})
    second = propose(client, active_rule, {"severity": "CRITICAL"})
    other, _ = staff_client(StaffRole.MLRO)
    base = f"{URL}/{active_rule['ruleId']}/proposals"
    assert other.post(f"{base}/{first['id']}/approve", {}, format="json").status_code == 200
    r = other.post(f"{base}/{second['id']}/approve", {}, format="json")
    assert r.status_code == 409
    assert AMLRule.objects.get(pk=active_rule["id"]).severity == "HIGH"


def test_switching_on_is_a_proposal_and_switching_off_is_immediate(four_eyes, mlro, make_rule):
    client, _ = mlro
    rule = make_rule(isActive=False)
    r = client.put(f"{URL}/{rule['ruleId']}/toggle", {"reason": "Go live"}, format="json")
    assert r.status_code == 202 and r.json()["data"]["proposal"]["changes"] == {"isActive": True}
    assert r.json()["data"]["proposal"]["reason"] == "Go live"
    assert AMLRule.objects.get(pk=rule["id"]).is_active is False
    r = client.put(f"{URL}/{rule['ruleId']}", {"isActive": True}, format="json")
    assert r.status_code == 202
    active = make_rule(isActive=True)
    r = client.put(f"{URL}/{active['ruleId']}/toggle", {"reason": "Too noisy"}, format="json")
    assert r.status_code == 200 and r.json()["data"]["isActive"] is False
    assert client.get(f"{URL}/{active['ruleId']}/versions").json()["data"][0]["reason"] == "Too noisy"


def test_edits_of_an_inactive_rule_and_harmless_edits_apply_at_once(four_eyes, mlro, make_rule):
    client, _ = mlro
    inactive = make_rule(isActive=False)
    r = client.put(f"{URL}/{inactive['ruleId']}", {"conditions": CONDITIONS}, format="json")
    assert r.status_code == 200 and r.json()["data"]["version"] == 2
    active = make_rule(isActive=True)
    r = client.put(f"{URL}/{active['ruleId']}", {"name": "Clearer name", "priority": 3}, format="json")
    assert r.status_code == 200 and r.json()["data"]["name"] == "Clearer name"


def test_actions_are_governed_content(four_eyes, mlro, active_rule):
    proposal = propose(mlro[0], active_rule, {"actions": {"createAlert": True, "block": True}})
    assert proposal["changes"] == {"actions": {"createAlert": True, "block": True}}


def test_validation_errors_are_answered_at_proposal_time(four_eyes, mlro, active_rule):
    client, _ = mlro
    bad = {"conditions": {"ruleType": "threshold", "thresholdAmount": -1}}
    r = client.put(f"{URL}/{active_rule['ruleId']}", bad, format="json")
    assert r.status_code == 400 and "conditions.thresholdAmount" in r.json()["error"]["details"]
    assert not RuleProposal.objects.exists()


def test_unknown_proposal_is_404(four_eyes, mlro, staff_client, active_rule):
    other, _ = staff_client(StaffRole.MLRO)
    base = f"{URL}/{active_rule['ruleId']}/proposals"
    assert other.post(f"{base}/not-a-uuid/approve", {}, format="json").status_code == 404
    assert other.post(f"{base}/00000000-0000-0000-0000-000000000000/approve", {}, format="json").status_code == 404
