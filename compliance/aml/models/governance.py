"""Change control of AML rules: proposals under four eyes, and per-user snoozes.

A ``RuleProposal`` holds a change that may not take effect on one person's
word (``RULE_FOUR_EYES``): a change to an active rule's conditions, severity
or actions, or switching a rule on. Its ``status`` is a protected state
machine; the transition methods refuse the proposer (four eyes), and
``compliance.aml.services.governance`` adds the locks, the new rule version,
the history row and the audit entry.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from backoffice.errors import FourEyesRequired
from backoffice.fsm import transition_table
from backoffice.models import StateChange
from backoffice.services import Actor
from compliance.aml.choices import ProposalStatus

P = ProposalStatus

# Model field names of AMLRule -> the interface's camelCase names, for proposals shown to clients.
API_NAMES = {"is_active": "isActive"}


class RuleProposal(ConcurrentTransitionMixin, models.Model):
    """A change to a rule that waits for a second person (MLRO or admin, not the proposer).

    ``changes`` maps AMLRule field names to their proposed values; it was
    validated against the rule when proposed. ``base_version`` is the rule's
    version the change was made against: approving it after the rule moved on
    is refused (409), since the proposer never saw the newer text. So a pending
    proposal does not wait for a decision it can no longer get: when the rule
    takes a new version, it is *superseded* (REJECTED, with no decider and the
    reason in ``decision_reason``; the proposer proposes again).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    rule = models.ForeignKey("compliance.AMLRule", on_delete=models.CASCADE, related_name="proposals")
    base_version = models.PositiveIntegerField()
    changes = models.JSONField()
    reason = models.TextField(blank=True, default="")
    status = FSMField(max_length=16, choices=ProposalStatus.choices, default=P.PENDING, protected=True, db_index=True)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="rule_proposals"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, default="")
    resulting_version = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        verbose_name = "rule change proposal"

    def __str__(self):
        # the page's title and every message about it: the rule's own id, never the row's UUIDs
        status = ProposalStatus(self.status).label.lower() if self.status in ProposalStatus.values else self.status
        return f"Change to {self.rule.rule_id} on version {self.base_version} ({status})"

    @property
    def api_changes(self) -> dict:
        return {API_NAMES.get(name, name): value for name, value in self.changes.items()}

    def _four_eyes(self, actor: Actor) -> None:
        if getattr(actor, "pk", None) == self.proposed_by_id:
            raise FourEyesRequired("The person who proposed a rule change cannot decide it")

    @transition(field=status, source=P.PENDING, target=P.APPROVED)
    def approve(self, *, actor: Actor) -> None:
        """A second person accepts the change; the service applies it as the rule's next version."""
        self._four_eyes(actor)
        self.decided_by = actor
        self.decided_at = timezone.now()

    @transition(field=status, source=P.PENDING, target=P.REJECTED)
    def reject(self, *, actor: Actor, reason: str) -> None:
        """A second person turns the change down, saying why; the rule stays as it is."""
        self._four_eyes(actor)
        self.decided_by = actor
        self.decided_at = timezone.now()
        self.decision_reason = reason

    # declared after ``reject`` on purpose: nobody decides it, so no four eyes (see ``SUPERSEDE``)
    @transition(field=status, source=P.PENDING, target=P.REJECTED)
    def supersede(self, *, reason: str) -> None:
        """The rule took a new version since this was proposed: it can never be approved (409 STALE_PROPOSAL)."""
        self.decided_at = timezone.now()
        self.decision_reason = reason

    @property
    def superseded(self) -> bool:
        """Closed because the rule moved on, not by a person (a rejection always names its decider)."""
        return self.status == P.REJECTED and self.decided_by_id is None


# (PENDING, REJECTED) is two moves: a person's rejection (the table's) and the service's supersession.
PROPOSAL_TRANSITIONS: dict[tuple[str, str], str] = {
    **transition_table(RuleProposal),
    (P.PENDING, P.REJECTED): "reject",
}
SUPERSEDE = {(P.PENDING, P.REJECTED): "supersede"}


class RuleProposalEvent(StateChange):
    """One move of a proposal (proposed, approved, rejected), with who and why."""

    proposal = models.ForeignKey(RuleProposal, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=ProposalStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=ProposalStatus.choices)

    class Meta(StateChange.Meta):
        app_label = "compliance"
        verbose_name = "rule proposal event"


class RuleSnooze(models.Model):
    """One rule stops raising alerts for one user until ``expires_at`` (a known, explained pattern).

    The engine (record-time and batch scans) drops that user's hits of that
    rule while a snooze is in force; it never deletes or closes existing
    alerts. Ending a snooze early sets ``ended_at``; rows are kept for audit.
    """

    id = models.BigAutoField(primary_key=True)
    rule = models.ForeignKey("compliance.AMLRule", on_delete=models.CASCADE, related_name="snoozes")
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.CASCADE, related_name="rule_snoozes")
    reason = models.TextField()
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["rule", "expires_at"], name="rule_snooze_active")]

    def __str__(self):
        return f"{self.rule.rule_id} snoozed for {self.user.full_name} until {self.expires_at:%Y-%m-%d %H:%M}"

    @property
    def in_force(self) -> bool:
        return self.ended_at is None and self.expires_at > timezone.now()
