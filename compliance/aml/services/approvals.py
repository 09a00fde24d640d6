"""AML's rows of the dual-control policy (docs/dual-control.md): rule changes (the proposals of four eyes) and
snoozing a HIGH or CRITICAL rule for a customer. Registered from ``AmlConfig.ready()``."""

from datetime import datetime
from typing import Any

from backoffice import dual_control
from backoffice.models import ApprovalRequest
from compliance.aml.models.governance import RuleProposal
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.governance import (
    RULE_CHANGE_KIND,
    RULE_SNOOZE_KIND,
    SEVERE,
    proposal_approve,
    proposal_reject,
    rule_snooze,
)
from kyc.models import PlatformUser

FIELD_WORDS = {"is_active": "active", "severity": "severity", "conditions": "conditions", "actions": "actions"}


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{key} {_words(item)}" for key, item in value.items()) or "none"
    return str(value)


def _proposal(request: ApprovalRequest) -> RuleProposal:
    return RuleProposal.objects.select_related("rule").get(pk=request.payload["proposal"])


def _change_apply(*, payload: dict, actor, request: ApprovalRequest | None) -> RuleProposal:
    proposal = RuleProposal.objects.get(pk=payload["proposal"])
    return proposal_approve(proposal=proposal, actor=actor, note=request.decision_reason if request else "")


def _change_reject(*, request: ApprovalRequest, actor) -> None:
    proposal_reject(proposal=_proposal(request), actor=actor, reason=request.decision_reason)


def _change_describe(request: ApprovalRequest) -> list[str]:
    """Each proposed field as "Rule X: field: before → after" (the rule as it is now on the left)."""
    proposal = _proposal(request)
    rule = proposal.rule
    return [
        f"Rule {rule.rule_id} ({rule.severity}): {FIELD_WORDS.get(name, name)}: "
        f"{_words(getattr(rule, name, None))} → {_words(value)}"
        for name, value in proposal.changes.items()
    ]


def _snooze_apply(*, payload: dict, actor, request: ApprovalRequest | None):
    return rule_snooze(
        rule=AMLRule.objects.get(pk=payload["rule"]),
        user=PlatformUser.objects.get(pk=payload["user"]),
        # the requester made the snooze's case; the approver lets it happen (both in the audit log)
        actor=request.requested_by if request else actor,
        expires_at=datetime.fromisoformat(payload["expires_at"]),
        reason=payload["reason"],
    )


def _snooze_describe(request: ApprovalRequest) -> list[str]:
    rule = AMLRule.objects.filter(pk=request.payload["rule"]).first()
    user = PlatformUser.objects.filter(pk=request.payload["user"]).first()
    what = f"{rule.rule_id} ({rule.severity}, {rule.name})" if rule else "a deleted rule"
    whom = f"{user.full_name} ({user.phone_number})" if user else "a deleted customer"
    return [
        f"Rule {what} stops raising alerts and deciding payments for {whom}",
        f"Until {request.payload['expires_at'][:16].replace('T', ' ')}",
        f"Reason: “{request.payload['reason']}”",
    ]


def register_approval_kinds() -> None:
    dual_control.register(
        dual_control.SensitiveAction(
            kind=RULE_CHANGE_KIND,
            label="AML rule change",
            request_capability="rules.write",
            approve_capability="rules.approve",
            switch_setting="RULE_FOUR_EYES",
            # the proposal itself waits until decided (its API has no expiry): so does its approval
            lifetime=dual_control.NEVER,
            apply=_change_apply,
            on_reject=_change_reject,
            describe=_change_describe,
            notes="Changing an active rule's conditions, severity or actions; switching a rule on (a new active rule "
            "too); switching off a HIGH or CRITICAL rule.",
        )
    )
    dual_control.register(
        dual_control.SensitiveAction(
            kind=RULE_SNOOZE_KIND,
            label="AML rule snooze",
            request_capability="rules.write",
            approve_capability="rules.approve",
            switch_setting="RULE_FOUR_EYES",
            severities=frozenset(SEVERE),
            apply=_snooze_apply,
            describe=_snooze_describe,
            notes="Snoozing a HIGH or CRITICAL rule for one customer; no snooze exceeds RULE_SNOOZE_MAX_DAYS.",
        )
    )
