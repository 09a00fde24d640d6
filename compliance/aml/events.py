"""The audited actions of AML monitoring, one typed function each: alerts raised, moved, reopened, assigned and
triaged in bulk; rules created, changed (at once, by proposal, by the catalogue), proposals decided, snoozes.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
"""

from datetime import datetime
from enum import StrEnum

from backoffice.models import AuditLog, Staff
from backoffice.services import Actor, Diff, Move, audit_record
from compliance.aml.models.alerts import CLOSED_STATES, Alert
from compliance.aml.models.governance import RuleProposal, RuleSnooze
from compliance.aml.models.rules import AMLRule


class Action(StrEnum):
    ALERT_RAISE = "alert.raise"
    ALERT_STATUS = "alert.status"
    ALERT_REOPEN = "alert.reopen"
    ALERT_ASSIGN = "alert.assign"
    ALERT_BULK = "alert.bulk"
    RULE_CREATE = "aml_rule.create"
    RULE_UPDATE = "aml_rule.update"
    RULE_TOGGLE = "aml_rule.toggle"
    RULE_RESET = "aml_rule.reset"
    RULE_CATALOGUE_UPGRADE = "aml_rule.catalogue_upgrade"
    RULE_PROPOSE = "aml_rule.propose"
    RULE_APPROVE = "aml_rule.approve"
    RULE_REJECT = "aml_rule.reject"
    RULE_SNOOZE = "aml_rule.snooze"
    RULE_SNOOZE_END = "aml_rule.snooze_end"


# The actions that apply a change to a rule as its next version (``rule_update``'s ``action``).
RULE_CHANGES = frozenset(
    {Action.RULE_UPDATE, Action.RULE_TOGGLE, Action.RULE_RESET, Action.RULE_CATALOGUE_UPGRADE, Action.RULE_APPROVE}
)

ALERT = "alert"
AML_RULE = "aml_rule"


# ---------------------------------------------------------------- alerts


def alert_raised(*, actor: Actor, alert: Alert) -> AuditLog:
    """An alert was raised (by the engine, a screening, an officer): its type, severity and customer."""
    return audit_record(
        actor=actor,
        action=Action.ALERT_RAISE,
        object_type=ALERT,
        object_id=alert.pk,
        changes={"alert_type": alert.alert_type, "severity": alert.severity, "user_id": str(alert.user_id)},
    )


def alert_moved(move: Move[Alert], *, reason_code: str) -> AuditLog:
    """An alert changed status (``fsm_move``'s event); from a closed state it is a reopening."""
    return audit_record(
        actor=move.actor,
        action=Action.ALERT_REOPEN if move.source in CLOSED_STATES else Action.ALERT_STATUS,
        object_type=ALERT,
        object_id=move.instance.pk,
        changes=move.payload(reason_code=reason_code),
    )


def alert_assigned(*, actor: Actor, alert: Alert, previous: Staff | None, assignee: Staff | None) -> AuditLog:
    """An alert was given to an officer (or back to the queue: ``assignee`` None)."""
    return audit_record(
        actor=actor,
        action=Action.ALERT_ASSIGN,
        object_type=ALERT,
        object_id=alert.pk,
        changes={"from": getattr(previous, "email", None), "to": getattr(assignee, "email", None)},
    )


def alerts_triaged(
    *, actor: Actor, action: str, updated: int, failed: int, assignee: Staff | None, reason_code: str
) -> AuditLog:
    """A bulk action on many alerts ended: what it was, how many changed and how many were refused."""
    return audit_record(
        actor=actor,
        action=Action.ALERT_BULK,
        object_type=ALERT,
        object_id="",
        changes={
            "action": str(action),
            "updated": updated,
            "failed": failed,
            "assignee": getattr(assignee, "email", None),
            "reason_code": reason_code,
        },
    )


# ---------------------------------------------------------------- rules


def rule_created(*, actor: Actor, rule: AMLRule) -> AuditLog:
    """A rule was created, as its version 1."""
    return audit_record(
        actor=actor,
        action=Action.RULE_CREATE,
        object_type=AML_RULE,
        object_id=rule.pk,
        changes={"rule_id": rule.rule_id, "version": 1, "snapshot": rule.snapshot()},
    )


def rule_changed(
    *,
    action: Action,
    actor: Actor,
    rule: AMLRule,
    fields: Diff,
    reason: str,
    proposed_by: Actor = None,
) -> AuditLog:
    """A change became the rule's next version (``action``: one of ``RULE_CHANGES``); ``fields``: the toolkit's diff.

    ``actor`` is who applied it: the approver of a proposal, whose author is ``proposed_by``.
    """
    if action not in RULE_CHANGES:
        raise ValueError(f"{action!r} does not change a rule")
    return audit_record(
        actor=actor,
        action=action,
        object_type=AML_RULE,
        object_id=rule.pk,
        changes={
            "rule_id": rule.rule_id,
            "version": rule.version,
            "fields": fields,
            "reason": reason or "",
            **({"proposed_by": str(proposed_by.pk)} if proposed_by is not None else {}),
        },
    )


def rule_proposed(*, actor: Actor, rule: AMLRule, proposal: RuleProposal, fields: Diff) -> AuditLog:
    """A change was proposed for a second person to decide; nothing applied yet."""
    return audit_record(
        actor=actor,
        action=Action.RULE_PROPOSE,
        object_type=AML_RULE,
        object_id=rule.pk,
        changes={
            "rule_id": rule.rule_id,
            "proposal": str(proposal.pk),
            "base_version": rule.version,
            "fields": fields,
            "reason": proposal.reason or "",
        },
    )


def proposal_rejected(*, actor: Actor, proposal: RuleProposal, reason: str) -> AuditLog:
    """A second person turned a proposed change down, with the reason."""
    return audit_record(
        actor=actor,
        action=Action.RULE_REJECT,
        object_type=AML_RULE,
        object_id=proposal.rule_id,
        changes={"proposal": str(proposal.pk), "reason": reason},
    )


def rule_snoozed(*, actor: Actor, snooze: RuleSnooze, expires_at: datetime) -> AuditLog:
    """A rule stopped raising alerts for one customer until ``expires_at``."""
    return audit_record(
        actor=actor,
        action=Action.RULE_SNOOZE,
        object_type=AML_RULE,
        object_id=snooze.rule.pk,
        changes={
            "rule_id": snooze.rule.rule_id,
            "user": str(snooze.user.pk),
            "expires_at": expires_at.isoformat(),
            "reason": snooze.reason,
        },
    )


def rule_snooze_ended(*, actor: Actor, snooze: RuleSnooze) -> AuditLog:
    """A snooze was ended before its expiry."""
    return audit_record(
        actor=actor,
        action=Action.RULE_SNOOZE_END,
        object_type=AML_RULE,
        object_id=snooze.rule_id,
        changes={"snooze": snooze.pk, "user": str(snooze.user_id)},
    )
