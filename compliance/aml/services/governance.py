"""Change control of AML rules: four eyes on changes that matter, and per-user snoozes.

With ``settings.RULE_FOUR_EYES`` on, a change to an active rule's
conditions, severity or actions, or switching a rule on, does not take
effect: it becomes a ``RuleProposal`` that a second person (MLRO or admin,
never the proposer) approves or rejects. Until then the current version keeps
running. Switching off a HIGH or CRITICAL rule is a proposal too (one tick
silenced the FATF call-for-action block); switching off a LOW or MEDIUM rule,
and edits of an inactive rule, apply at once. Creating a rule already active
creates it switched off and proposes switching it on. Snoozing a HIGH or
CRITICAL rule for a customer is a dual-control request (kind
``compliance.rule_snooze``), and no snooze lasts longer than
``RULE_SNOOZE_MAX_DAYS``. Proposals made by a person also wait in the one
approval queue (kind ``compliance.rule_change``, docs/dual-control.md), and
deciding them there or here keeps both in step.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backoffice.errors import Conflict, Forbidden, ValidationFailed
from backoffice.services import Actor, Move, field_diff, fsm_move, history_record, lock_row
from backoffice.services.approvals import (
    ApprovalOutcome,
    approval_open,
    approval_request,
    approval_settle,
    approvals_lock_target,
    approvals_overtaken,
)
from compliance.aml import events
from compliance.aml.choices import ProposalStatus
from compliance.aml.models.governance import (
    PROPOSAL_TRANSITIONS,
    SUPERSEDE,
    RuleProposal,
    RuleProposalEvent,
    RuleSnooze,
)
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.rules import rule_check_changes, rule_create, rule_update, rule_validate_changes
from compliance.casework.choices import Severity
from kyc.models import PlatformUser

# Fields whose change on an active rule changes what the engine raises or does.
GOVERNED = ("conditions", "severity", "actions")
# Rules whose switching off, or snoozing, needs a second person under four eyes.
SEVERE = frozenset({Severity.HIGH, Severity.CRITICAL})
# The dual-control kinds of this module (registered by compliance.aml.services.approvals).
RULE_CHANGE_KIND = "compliance.rule_change"
RULE_SNOOZE_KIND = "compliance.rule_snooze"
PROPOSAL_TARGET = "rule_proposal"
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
    if rule.is_active and not active_after:
        return rule.severity in SEVERE  # switching off: quieter, but a HIGH or CRITICAL rule's silence matters
    if not active_after:
        return False  # editing an inactive rule that stays inactive
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
        updated = rule_update(rule=locked, actor=actor, changes=changes, action=action, reason=reason)
        proposals_supersede(rule=updated)
        return ChangeOutcome(rule=updated)
    return ChangeOutcome(rule=locked, proposal=rule_propose(rule=locked, actor=actor, changes=diff, reason=reason))


@transaction.atomic
def rule_create_governed(*, actor: Actor, is_active: bool = False, reason: str = "", **fields: Any) -> ChangeOutcome:
    """Create a rule; under four eyes one asked for active is created switched off and switching it on is
    proposed (contract: rule governance), so no new rule blocks payments on one person's word."""
    if not (settings.RULE_FOUR_EYES and is_active):
        return ChangeOutcome(rule=rule_create(actor=actor, is_active=is_active, reason=reason, **fields))
    rule = rule_create(actor=actor, is_active=False, reason=reason, **fields)
    proposal = rule_propose(rule=rule, actor=actor, changes={"is_active": True}, reason=reason or "A new rule")
    rule.refresh_from_db()
    return ChangeOutcome(rule=rule, proposal=proposal)


@transaction.atomic
def rule_change_to(*, rule_pk, actor: Actor, values: dict[str, Any], reason: str = "") -> ChangeOutcome:
    """Change a rule to ``values``, an edit form's whole set of updatable fields: the change is only the fields
    that differ from the stored rule (``rule_change`` then applies or proposes it)."""
    current = AMLRule.objects.get(pk=rule_pk)
    wanted = {name: values[name] for name in AMLRule.UPDATABLE if name in values}
    before = {name: getattr(current, name) for name in wanted}
    changes = {name: wanted[name] for name in field_diff(before, wanted)}
    return rule_change(rule=current, actor=actor, changes=changes, reason=reason)


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
    if actor is not None:
        # a person's proposal also waits in the one approval queue (the catalogue's, made by the system, does not)
        approval_open(
            kind=RULE_CHANGE_KIND,
            actor=actor,
            summary=f"Change rule {locked.rule_id} ({locked.severity})",
            payload={"proposal": str(proposal.pk), "rule": str(locked.pk)},
            reason=reason,
            target_type=PROPOSAL_TARGET,
            target_id=str(proposal.pk),
            severity=locked.severity,
        )
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


def _settle(proposal: RuleProposal, *, actor: Actor, approved: bool, reason: str) -> None:
    """Decided here (the proposal endpoints or page): its request in the approval queue follows."""
    approval_settle(
        kind=RULE_CHANGE_KIND,
        target_type=PROPOSAL_TARGET,
        target_id=proposal.pk,
        actor=actor,
        approved=approved,
        reason=reason,
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
    if proposal.superseded:
        # closed because the rule moved on: what the contract answers for a stale proposal, not "already decided"
        raise Conflict(STALE, code="STALE_PROPOSAL")
    # its approval request first, as the approval queue takes them: two ways in never deadlock
    approvals_lock_target(kind=RULE_CHANGE_KIND, target_type=PROPOSAL_TARGET, target_id=proposal.pk)
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
        rules.append(updated)
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
    _settle(proposal, actor=actor, approved=True, reason=note)
    proposals_supersede(rule=rules[-1])
    return move.instance


@transaction.atomic
def proposals_supersede(*, rule: AMLRule) -> int:
    """Close the rule's pending proposals made against an older version than its current one (the rule changed
    under them: approving them is 409 STALE_PROPOSAL), each with a history row and an audit entry naming the
    version; returns how many. Called after every change applied as a new version."""
    stale = RuleProposal.objects.filter(rule_id=rule.pk, status=ProposalStatus.PENDING, base_version__lt=rule.version)
    count = 0
    for proposal in stale.order_by("created_at"):
        reason = (
            f"Superseded: the rule changed to version {rule.version} after this was proposed against version "
            f"{proposal.base_version}; propose the change again against the current version."
        )
        # its request in the approval queue lapses too (approving it could only fail now); taken before the
        # proposal's row, the order every way in locks them
        approvals_overtaken(kind=RULE_CHANGE_KIND, target_type=PROPOSAL_TARGET, target_id=proposal.pk)
        fsm_move(
            proposal,
            to=ProposalStatus.REJECTED,
            actor=None,
            note=reason,
            transitions=SUPERSEDE,
            history=RuleProposalEvent,
            event=lambda move, reason=reason: events.proposal_rejected(
                actor=None, proposal=move.instance, reason=reason
            ),
            reason=reason,
        )
        count += 1
    return count


@transaction.atomic
def proposal_reject(*, proposal: RuleProposal, actor: Actor, reason: str) -> RuleProposal:
    """A second person turns the change down with a reason (400 without one); the rule is left as it is."""
    _require_decider(actor)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("Validation error", details={"reason": ["A reason is required to reject a change."]})
    approvals_lock_target(kind=RULE_CHANGE_KIND, target_type=PROPOSAL_TARGET, target_id=proposal.pk)
    move = fsm_move(
        proposal,
        to=ProposalStatus.REJECTED,
        actor=actor,
        note=reason,
        related=("proposed_by",),
        refused="Cannot reject a proposal that is {source}",
        transitions=PROPOSAL_TRANSITIONS,
        check=lambda move: move.instance._four_eyes(actor),
        history=RuleProposalEvent,
        event=lambda move: events.proposal_rejected(actor=actor, proposal=move.instance, reason=reason),
        reason=reason,
    )
    _settle(proposal, actor=actor, approved=False, reason=reason)
    return move.instance


# ---------------------------------------------------------------- snoozes


def _snooze_problems(expires_at: datetime | None, reason: str) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    if not reason:
        errors["reason"] = ["A reason is required."]
    now = timezone.now()
    if expires_at is None or expires_at <= now:
        errors["expiresAt"] = ["Must be in the future."]
    elif expires_at > now + timedelta(days=settings.RULE_SNOOZE_MAX_DAYS):
        errors["expiresAt"] = [f"At most {settings.RULE_SNOOZE_MAX_DAYS} days ahead (RULE_SNOOZE_MAX_DAYS)."]
    return errors


@transaction.atomic
def rule_snooze(*, rule: AMLRule, user: PlatformUser, actor: Actor, expires_at: datetime, reason: str) -> RuleSnooze:
    """Stop ``rule`` raising alerts for ``user`` until ``expires_at`` (future, at most ``RULE_SNOOZE_MAX_DAYS``
    ahead, with a reason), audited."""
    reason = (reason or "").strip()
    errors = _snooze_problems(expires_at, reason)
    if errors:
        raise ValidationFailed("Validation error", details=errors)
    snooze = RuleSnooze.objects.create(rule=rule, user=user, reason=reason, expires_at=expires_at, created_by=actor)
    events.rule_snoozed(actor=actor, snooze=snooze, expires_at=expires_at)
    return snooze


@transaction.atomic
def rule_snooze_ask(
    *, rule: AMLRule, user: PlatformUser, actor: Actor, expires_at: datetime, reason: str
) -> ApprovalOutcome:
    """Snooze at once, or, under four eyes for a HIGH or CRITICAL rule, ask a second person (``outcome.request``).
    Invalid snoozes are refused now, not at approval."""
    reason = (reason or "").strip()
    errors = _snooze_problems(expires_at, reason)
    if errors:
        raise ValidationFailed("Validation error", details=errors)
    return approval_request(
        kind=RULE_SNOOZE_KIND,
        actor=actor,
        severity=rule.severity,
        summary=f"Snooze rule {rule.rule_id} ({rule.severity}) for {user.full_name} until {expires_at:%Y-%m-%d %H:%M}",
        payload={"rule": str(rule.pk), "user": str(user.pk), "expires_at": expires_at.isoformat(), "reason": reason},
        reason=reason,
        target_type="rule_snooze",
        target_id=f"{rule.pk}:{user.pk}",
    )


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
