"""Issue 31: a proposal the rule moved on from is closed (never left PENDING for a decision it cannot get), still
answered 409 STALE_PROPOSAL; after an approved threshold change the rule's description quotes the new amount."""

import pytest

from backoffice.choices import StaffRole
from compliance.aml.models.governance import RuleProposal, RuleProposalEvent
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.rules import description_following

URL = "/api/v1/admin/aml/rules"


@pytest.fixture
def four_eyes(settings):
    settings.RULE_FOUR_EYES = True


def propose(client, rule_id, body):
    r = client.put(f"{URL}/{rule_id}", body, format="json")
    assert r.status_code == 202, r.json()
    return r.json()["data"]["proposal"]


def test_an_approval_supersedes_the_other_pending_proposals(four_eyes, mlro, staff_client, make_rule):
    client, _ = mlro
    rule = make_rule(isActive=True)
    first = propose(client, rule["ruleId"], {"severity": "HIGH"})
    second = propose(client, rule["ruleId"], {"severity": "CRITICAL"})
    other, _ = staff_client(StaffRole.MLRO)
    base = f"{URL}/{rule['ruleId']}/proposals"
    assert other.post(f"{base}/{first['id']}/approve", {}, format="json").status_code == 200
    stale = RuleProposal.objects.get(pk=second["id"])
    assert stale.status == "REJECTED" and stale.superseded and stale.decided_by is None
    assert "changed to version 2" in stale.decision_reason and "propose the change again" in stale.decision_reason
    moves = list(RuleProposalEvent.objects.filter(proposal=stale).values_list("to_status", "note"))
    assert moves[-1] == ("REJECTED", stale.decision_reason)
    listed = {p["id"]: p for p in client.get(base).json()["data"]}
    assert listed[second["id"]]["status"] == "REJECTED"
    # the contract's answer for a stale proposal still holds
    r = other.post(f"{base}/{second['id']}/approve", {}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "STALE_PROPOSAL"
    assert AMLRule.objects.get(pk=rule["id"]).severity == "HIGH"


def test_an_edit_applied_at_once_supersedes_a_pending_proposal(four_eyes, mlro, make_rule):
    client, _ = mlro
    rule = make_rule(isActive=True)
    pending = propose(client, rule["ruleId"], {"severity": "HIGH"})
    r = client.put(f"{URL}/{rule['ruleId']}", {"name": "Renamed", "reason": "Clearer name"}, format="json")
    assert r.status_code == 200, r.json()
    assert RuleProposal.objects.get(pk=pending["id"]).status == "REJECTED"


def test_the_description_quotes_the_approved_amount(four_eyes, mlro, staff_client, make_rule):
    client, _ = mlro
    rule = make_rule(isActive=True, description="One wallet transaction of E50,000 or more: far above the usual.")
    conditions = {**rule["conditions"], "thresholdAmount": 40000}
    proposal = propose(client, rule["ruleId"], {"conditions": conditions, "reason": "Tuning"})
    other, _ = staff_client(StaffRole.MLRO)
    r = other.post(f"{URL}/{rule['ruleId']}/proposals/{proposal['id']}/approve", {}, format="json")
    assert r.status_code == 200, r.json()
    stored = AMLRule.objects.get(pk=rule["id"])
    assert stored.description == "One wallet transaction of E40,000 or more: far above the usual."
    assert "E50,000" not in client.get(f"{URL}/{rule['ruleId']}").json()["data"]["description"]


def test_an_edit_that_writes_its_own_description_keeps_it(mlro, make_rule):
    client, _ = mlro
    rule = make_rule(isActive=True, description="Transfers of E50,000 or more.")
    conditions = {**rule["conditions"], "thresholdAmount": 40000}
    body = {"conditions": conditions, "description": "Large transfers (see policy 4.2)."}
    assert client.put(f"{URL}/{rule['ruleId']}", body, format="json").status_code == 200
    assert AMLRule.objects.get(pk=rule["id"]).description == "Large transfers (see policy 4.2)."


@pytest.mark.parametrize(
    ("text", "before", "after", "expected"),
    [
        ("E50,000 or more", {"a": 50000}, {"a": 40000}, "E40,000 or more"),
        ("E50,000 but not E500,000", {"a": 50000}, {"a": 45000}, "E45,000 but not E500,000"),
        ("SZL 1,000.00 in 10 payments", {"a": 1000, "n": 10}, {"a": 1500, "n": 12}, "SZL 1,500.00 in 10 payments"),
        ("E5,000 each", {"a": 5000, "b": 5000}, {"a": 4000, "b": 6000}, "E5,000 each"),  # which one? left alone
    ],
)
def test_description_following(text, before, after, expected):
    assert description_following(text, before, after) == expected
