"""Reads of AML rules: lookup by ruleId or UUID, and the filtered list."""

import uuid

from backoffice.errors import NotFound
from compliance.aml.models.governance import RuleProposal
from compliance.aml.models.rules import AMLRule, AMLRuleVersion

RULE_NOT_FOUND = "Rule not found"


def rule_get(ref: str, *, for_update: bool = False) -> AMLRule:
    """The rule whose ruleId is ``ref``, or whose UUID is ``ref``; NotFound otherwise."""
    qs = AMLRule.objects.select_for_update() if for_update else AMLRule.objects.all()
    rule = qs.filter(rule_id=ref).first()
    if rule is None:
        try:
            rule = qs.filter(pk=uuid.UUID(str(ref))).first()
        except ValueError:
            rule = None
    if rule is None:
        raise NotFound(RULE_NOT_FOUND)
    return rule


def rule_list():
    return AMLRule.objects.order_by("priority", "rule_id")


def rule_versions(rule: AMLRule):
    return AMLRuleVersion.objects.filter(rule=rule).select_related("changed_by", "approved_by").order_by("-version")


def rule_proposals(rule: AMLRule):
    return (
        RuleProposal.objects.filter(rule=rule)
        .select_related("rule", "proposed_by", "decided_by")
        .order_by("-created_at")
    )


def proposal_get(rule: AMLRule, ref: str) -> RuleProposal:
    """A proposal of ``rule`` by its id; NotFound otherwise (also for another rule's proposal)."""
    try:
        pk = uuid.UUID(str(ref))
    except ValueError:
        raise NotFound("Proposal not found") from None
    proposal = RuleProposal.objects.filter(rule=rule, pk=pk).select_related("rule", "proposed_by").first()
    if proposal is None:
        raise NotFound("Proposal not found")
    return proposal
