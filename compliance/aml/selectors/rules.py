"""Reads of AML rules: lookup by ruleId or UUID, and the filtered list."""

import uuid

from backoffice.errors import NotFound
from compliance.aml.models.governance import RuleProposal, RuleSnooze
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


def rule_snoozes(rule: AMLRule):
    return RuleSnooze.objects.filter(rule=rule).select_related("rule", "created_by").order_by("-created_at")


def snooze_get(rule: AMLRule, ref) -> RuleSnooze:
    snooze = RuleSnooze.objects.filter(rule=rule, pk=int(ref)).select_related("rule", "created_by").first()
    if snooze is None:
        raise NotFound("Snooze not found")
    return snooze


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


# ---------------------------------------------------------------- differences between versions

# snapshot keys compared field by field, with the name each difference is reported under (the interface's);
# conditions are compared parameter by parameter
_TOP_LEVEL = {
    "name": "name",
    "description": "description",
    "category": "category",
    "severity": "severity",
    "priority": "priority",
    "is_active": "isActive",
    "actions": "actions",
}


def snapshot_diff(before: dict | None, after: dict) -> list[tuple[str, object, object]]:
    """(what, was, now) for every field and every condition parameter that differs; all of ``after`` when new."""
    before = before or {}
    changes: list[tuple[str, object, object]] = []
    old_c, new_c = before.get("conditions") or {}, after.get("conditions") or {}
    for name in dict.fromkeys([*old_c, *new_c]):
        if old_c.get(name) != new_c.get(name):
            label = "ruleType" if name == "ruleType" else f"conditions.{name}"
            changes.append((label, old_c.get(name), new_c.get(name)))
    for key, label in _TOP_LEVEL.items():
        if before.get(key) != after.get(key):
            if key == "actions":
                old_a, new_a = before.get(key) or {}, after.get(key) or {}
                for name in dict.fromkeys([*old_a, *new_a]):
                    if old_a.get(name) != new_a.get(name):
                        changes.append((f"actions.{name}", old_a.get(name), new_a.get(name)))
            else:
                changes.append((label, before.get(key), after.get(key)))
    return changes


def rule_history(rule: AMLRule) -> list[dict]:
    """Every version, newest first, with its differences from the one before (one query, people included)."""
    versions = list(
        AMLRuleVersion.objects.filter(rule=rule).select_related("changed_by", "approved_by").order_by("version")
    )
    history, previous = [], None
    for version in versions:
        history.append({"version": version, "changes": snapshot_diff(previous, version.snapshot)})
        previous = version.snapshot
    return history[::-1]


def proposal_diffs(proposals) -> dict:
    """proposal pk -> what it would change, parameter by parameter, against the version it was made on.

    One query for all the base versions, however many proposals.
    """
    proposals = list(proposals)
    wanted = {(p.rule_id, p.base_version) for p in proposals}
    bases: dict = {}
    if wanted:
        rows = AMLRuleVersion.objects.filter(
            rule_id__in={r for r, _ in wanted}, version__in={v for _, v in wanted}
        ).values_list("rule_id", "version", "snapshot")
        bases = {(rule_id, version): snapshot for rule_id, version, snapshot in rows}
    diffs = {}
    for proposal in proposals:
        base = bases.get((proposal.rule_id, proposal.base_version)) or {}
        after = {**base, **proposal.changes}  # both keyed by the model's field names
        diffs[proposal.pk] = snapshot_diff(base, after)
    return diffs


def proposal_diff(proposal: RuleProposal) -> list[tuple[str, object, object]]:
    """What one proposal would change, parameter by parameter, against the version it was made on."""
    return proposal_diffs([proposal])[proposal.pk]
