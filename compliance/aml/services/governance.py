"""Change control of AML rules: four eyes on changes that matter, and per-user snoozes.

With ``settings.RULE_FOUR_EYES`` on, a change to an active rule's
conditions, severity or actions, or switching a rule on, does not take
effect: it becomes a ``RuleProposal`` that a second person (MLRO or admin,
never the proposer) approves or rejects. Until then the current version keeps
running. Switching a rule off, and edits of an inactive rule, apply at once:
they can only make the engine quieter, never louder behind anyone's back.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backoffice.errors import Conflict, Forbidden, ValidationFailed
from backoffice.services import Actor, Move, field_diff, fsm_move, history_record, lock_row
from compliance.aml import events
from compliance.aml.choices import ProposalStatus
from compliance.aml.models.governance import RuleProposal, RuleProposalEvent, RuleSnooze
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.rules import rule_check_changes, rule_update, rule_validate_changes
from kyc.models import PlatformUser

# Fields whose change on an active rule changes what the engine raises or does.
GOVERNED = ("conditions", "severity", "actions")
STALE = "The rule changed since this proposal was made; propose the change again against the current version"


@dataclass(frozen=True)
class ChangeOutcome:
    """What a requested change did: applied (``rule``, the new state) or proposed (``proposal`` too)."""

    rule: AMLRule
    proposal: RuleProposal | None = None

    @property
    def proposed(self) -> bool:
        return self.proposal is not None


def needs_approval(rule: AMLRule, diff: dict[str, Any]) -> bool:
    """Whether changing ``rule`` by ``diff`` (only the fields that really change) needs a second person."""
    if not settings.RULE_FOUR_EYES or not diff:
        return False
    active_after = diff.get("is_active", rule.is_active)
    if not active_after:
        return False  # switching off, or editing an inactive rule that stays inactive
    if not rule.is_active:
        return True  # switching on
    return any(name in diff for name in GOVERNED)


def _record(proposal: RuleProposal, *, actor: Actor, from_status: str, note: str) -> None:
    history_record(
        proposal, history=RuleProposalEvent, source=from_status, target=proposal.status, actor=actor, note=note
    )


@transaction.atomic
def rule_change(
    *,
    rule: AMLRule,
    actor: Actor,
    changes: dict[str, Any],
    reason: str = "",
    action: events.Action = events.Action.RULE_UPDATE,
) -> ChangeOutcome:
    """Change a rule, at once or as a proposal (four eyes); invalid changes are refused now, not at approval."""
    changes = rule_check_changes(changes)
    locked = AMLRule.objects.select_for_update().get(pk=rule.pk)
    diff = {name: value for name, value in changes.items() if getattr(locked, name) != value}
    if not needs_approval(locked, diff):
        return ChangeOutcome(rule=rule_update(rule=locked, actor=actor, changes=changes, action=action, reason=reason))
    return ChangeOutcome(rule=locked, proposal=rule_propose(rule=locked, actor=actor, changes=diff, reason=reason))


@transaction.atomic
def rule_propose(*, rule: AMLRule, actor: Actor, changes: dict[str, Any], reason: str = "") -> RuleProposal:
    """Record ``changes`` as a proposal a second person decides; validated now, nothing applied."""
    changes = rule_check_changes(changes)
    locked = AMLRule.objects.select_for_update().get(pk=rule.pk)
    diff = {name: value for name, value in changes.items() if getattr(locked, name) != value}
    if not diff:
        raise ValidationFailed("Nothing to propose: every value is already the rule's")
    rule_validate_changes(locked, diff)
    proposal = RuleProposal.objects.create(
        rule=locked, base_version=locked.version, changes=diff, reason=reason or "", proposed_by=actor
    )
    _record(proposal, actor=actor, from_status="", note=reason)
    events.rule_proposed(
        actor=actor,
        rule=locked,
        proposal=proposal,
        fields=field_diff({name: getattr(locked, name) for name in diff}, diff),
    )
    return proposal


@transaction.atomic
def rule_toggle_or_propose(*, rule: AMLRule, actor: Actor, reason: str = "") -> ChangeOutcome:
    """Flip isActive: off at once, on at once or as a proposal (four eyes)."""
    current = AMLRule.objects.select_for_update().values_list("is_active", flat=True).get(pk=rule.pk)
    return rule_change(
        rule=rule, actor=actor, changes={"is_active": not current}, reason=reason, action=events.Action.RULE_TOGGLE
    )


def _require_decider(actor: Actor) -> None:
    has = getattr(actor, "has_capability", None)
    if not (has and has("rules.approve")):
        raise Forbidden("Only an MLRO or an admin may decide a rule change")


@transaction.atomic
def proposal_approve(*, proposal: RuleProposal, actor: Actor, note: str = "") -> RuleProposal:
    """A second person approves: the change becomes the rule's next version (proposer and approver kept).

    Refused: the proposer (403 FOUR_EYES_REQUIRED), a decided proposal (409
    INVALID_TRANSITION), a proposal made against an older version (409 CONFLICT).
    """
    _require_decider(actor)
    rules: list[AMLRule] = []

    def check(move: Move[RuleProposal]) -> None:
        # the proposal's row, then the rule's: the order every writer of both takes them in
        rule = AMLRule.objects.select_for_update().get(pk=move.instance.rule_id)
        move.instance._four_eyes(actor)
        if rule.version != move.instance.base_version:
            raise Conflict(STALE, code="STALE_PROPOSAL")
        rules.append(rule)

    def apply(move: Move[RuleProposal]) -> None:
        proposal = move.instance
        updated = rule_update(
            rule=rules[0],
            actor=proposal.proposed_by,
            changes=dict(proposal.changes),
            action=events.Action.RULE_APPROVE,
            reason=proposal.reason,
            approved_by=actor,
        )
        proposal.resulting_version = updated.version
        proposal.decision_reason = note or ""

    move = fsm_move(
        proposal,
        to=ProposalStatus.APPROVED,
        actor=actor,
        note=note or "",
        related=("proposed_by",),  # a nullable join, which PostgreSQL cannot lock: the proposal's row only
        refused="Cannot approve a proposal that is {source}",
        check=check,
        before_save=apply,
        history=RuleProposalEvent,
        event=None,  # the rule's own entry (aml_rule.approve) names proposer and approver
    )
    return move.instance


@transaction.atomic
def proposal_reject(*, proposal: RuleProposal, actor: Actor, reason: str) -> RuleProposal:
    """A second person turns the change down with a reason (400 without one); the rule is left as it is."""
    _require_decider(actor)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("Validation error", details={"reason": ["A reason is required to reject a change."]})
    move = fsm_move(
        proposal,
        to=ProposalStatus.REJECTED,
        actor=actor,
        note=reason,
        related=("proposed_by",),
        refused="Cannot reject a proposal that is {source}",
        check=lambda move: move.instance._four_eyes(actor),
        history=RuleProposalEvent,
        event=lambda move: events.proposal_rejected(actor=actor, proposal=move.instance, reason=reason),
        reason=reason,
    )
    return move.instance


# ---------------------------------------------------------------- snoozes


@transaction.atomic
def rule_snooze(*, rule: AMLRule, user: PlatformUser, actor: Actor, expires_at: datetime, reason: str) -> RuleSnooze:
    """Stop ``rule`` raising alerts for ``user`` until ``expires_at`` (future, with a reason), audited."""
    reason = (reason or "").strip()
    errors: dict[str, list[str]] = {}
    if not reason:
        errors["reason"] = ["A reason is required."]
    if expires_at is None or expires_at <= timezone.now():
        errors["expiresAt"] = ["Must be in the future."]
    if errors:
        raise ValidationFailed("Validation error", details=errors)
    snooze = RuleSnooze.objects.create(rule=rule, user=user, reason=reason, expires_at=expires_at, created_by=actor)
    events.rule_snoozed(actor=actor, snooze=snooze, expires_at=expires_at)
    return snooze


@transaction.atomic
def rule_snooze_end(*, snooze: RuleSnooze, actor: Actor) -> RuleSnooze:
    """End a snooze before its expiry (the rule raises alerts for the user again), audited."""
    locked = lock_row(snooze)
    if not locked.in_force:
        raise Conflict("This snooze is no longer in force")
    locked.ended_at = timezone.now()
    locked.save(update_fields=["ended_at"])
    events.rule_snooze_ended(actor=actor, snooze=locked)
    return locked
