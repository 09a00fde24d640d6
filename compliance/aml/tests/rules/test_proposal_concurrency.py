"""Two approvers deciding one proposal at once, on PostgreSQL: exactly one decision counts."""

import pytest

from backoffice.choices import StaffRole
from backoffice.errors import InvalidTransition
from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.governance import RuleProposal
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.governance import proposal_approve, proposal_reject, rule_propose
from compliance.aml.services.rules import rule_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_simultaneous_approve_and_reject_decide_once():
    proposer, *deciders = [StaffFactory(role=StaffRole.MLRO) for _ in range(3)]
    rule = rule_create(
        actor=proposer,
        rule_id="T-RACE",
        name="Race",
        conditions={"ruleType": "threshold", "thresholdAmount": 100},
        is_active=True,
    )
    proposal = rule_propose(rule=rule, actor=proposer, changes={"severity": "HIGH"}, reason="r")

    def decide(i):
        fresh = RuleProposal.objects.get(pk=proposal.pk)
        if i == 0:
            return proposal_approve(proposal=fresh, actor=deciders[0])
        return proposal_reject(proposal=fresh, actor=deciders[1], reason="no")

    outcomes = run_in_threads(2, decide)
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], InvalidTransition)
    final = RuleProposal.objects.get(pk=proposal.pk)
    stored = AMLRule.objects.get(pk=rule.pk)
    if final.status == "APPROVED":
        assert stored.severity == "HIGH" and stored.version == 2
    else:
        assert final.status == "REJECTED" and stored.severity == "MEDIUM" and stored.version == 1
