"""The SAR and its workflow.

The workflow is declared here, once: ``SAR.status`` is a protected
django-fsm-2 field and every row of the interface's transition table is one
``@transition`` on the model. The transition methods themselves refuse a move
that breaks the rules (wrong role, missing reviewer or approver, four eyes),
so no caller can skip a check by calling the method directly;
``compliance.sars.services.sar.sar_transition`` adds the row lock, the history row and
the audit entry.
"""

import secrets
import string
import time
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from backoffice.errors import Forbidden, FourEyesRequired, InvalidTransition
from backoffice.fsm import transition_table
from backoffice.jsondepth import BoundedJSONField
from backoffice.models import StateChange
from backoffice.services import Actor
from compliance.sars import narratives
from compliance.sars.choices import ActivityType, SARStatus
from compliance.sars.errors import SARIncomplete

_SUFFIX_ALPHABET = string.ascii_uppercase + string.digits


def new_sar_id() -> str:
    """``SAR-`` + milliseconds since the epoch + ``-`` + six uppercase alphanumerics."""
    suffix = "".join(secrets.choice(_SUFFIX_ALPHABET) for _ in range(6))
    return f"SAR-{time.time_ns() // 1_000_000}-{suffix}"


# The capability a staff member needs to move a SAR *into* each state. Filing
# and reviewing stay with compliance officers; everything from approval on is
# the MLRO's (backoffice.roles).
TARGET_CAPABILITY: dict[str, str] = {
    SARStatus.PENDING_REVIEW: "sars.file",
    SARStatus.PENDING_APPROVAL: "sars.review",
    SARStatus.SUBMITTED: "sars.approve",
    SARStatus.ACKNOWLEDGED: "sars.approve",
    SARStatus.UNDER_INVESTIGATION: "sars.approve",
    SARStatus.CLOSED: "sars.approve",
}

# States that a reviewed (and approved) SAR is in; clean() checks the matching people are set.
REVIEWED_STATES = frozenset(
    {
        SARStatus.PENDING_APPROVAL,
        SARStatus.SUBMITTED,
        SARStatus.ACKNOWLEDGED,
        SARStatus.UNDER_INVESTIGATION,
        SARStatus.CLOSED,
    }
)
APPROVED_STATES = REVIEWED_STATES - {SARStatus.PENDING_APPROVAL}
# not yet filed: the report may still change, and the alerts it cites stay escalated
IN_PROGRESS = frozenset({SARStatus.DRAFT, SARStatus.PENDING_REVIEW, SARStatus.PENDING_APPROVAL})


def may_move_to(target: str):
    """A django-fsm permission callable: the staff member's role allows moving into ``target``."""

    def check(instance, user) -> bool:
        has = getattr(user, "has_capability", None)
        # moves into DRAFT are returns, checked by may_return_from; the fallback only keeps the lookup total
        return bool(has and has(TARGET_CAPABILITY.get(target, "sars.file")))

    return check


def require_role(actor: Actor, target: str) -> None:
    if not may_move_to(target)(None, actor):
        raise Forbidden("Your role does not allow moving a SAR to " + target)


# Sending a report back to DRAFT: the reviewer's step (compliance officers) from PENDING_REVIEW, the
# approver's (MLROs) from PENDING_APPROVAL. Never the filer (four eyes), always with a reason.
RETURN_CAPABILITY: dict[str, str] = {
    SARStatus.PENDING_REVIEW: "sars.review",
    SARStatus.PENDING_APPROVAL: "sars.approve",
}


def may_return_from(source: str):
    """A django-fsm permission callable: the staff member's role allows returning a SAR from ``source``."""

    def check(instance, user) -> bool:
        has = getattr(user, "has_capability", None)
        return bool(has and has(RETURN_CAPABILITY[source]))

    return check


class SAR(ConcurrentTransitionMixin, models.Model):
    """A suspicious activity report about one user, moved through review, approval and the FIU's answers.

    ``status`` is a protected FSM field: it changes only through the
    ``@transition`` methods below (one per row of the transition table),
    called by ``compliance.sars.services.sar.sar_transition``. Four eyes: the reviewer
    is not the filer, the approver is neither the filer nor the reviewer;
    the transitions refuse it and database constraints back them up.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    sar_id = models.CharField(max_length=40, unique=True, editable=False, default=new_sar_id)
    status = FSMField(default=SARStatus.DRAFT, choices=SARStatus.choices, protected=True, db_index=True)
    entity_user = models.ForeignKey("kyc.PlatformUser", on_delete=models.PROTECT, related_name="sars")
    suspicious_activity_type = models.CharField(max_length=32, choices=ActivityType.choices)
    activity_description = models.TextField()
    date_of_suspicious_activity = models.DateField()
    amount_involved = models.DecimalField(max_digits=14, decimal_places=2)
    related_transactions = models.ManyToManyField("kyc.Transaction", blank=True, related_name="sars")
    related_alerts = models.ManyToManyField("compliance.Alert", blank=True, related_name="sars")
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="sars_filed"
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="sars_reviewed"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="sars_approved"
    )
    fiu_reference = models.CharField("FIU reference", max_length=64, blank=True, default="")
    # the unit's answer to the filing (ACCEPTED or REJECTED, with its reason), recorded by the MLRO
    fiu_outcome = models.CharField("FIU outcome", max_length=16, blank=True, default="")
    fiu_reason = models.TextField("FIU reason", blank=True, default="")
    fiu_answered_at = models.DateTimeField("FIU answered at", null=True, blank=True)
    # a correction names the report the unit rejected; it goes through the whole workflow again
    corrects = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections")
    drafted_at = models.DateTimeField(auto_now_add=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    approved_at = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # the sha256 of the goAML XML as filed (SUBMITTED); the filed copies themselves are SARFiledExport rows
    filed_sha256 = models.CharField(max_length=64, blank=True, default="", editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        verbose_name = "SAR"
        verbose_name_plural = "SARs"
        indexes = [
            models.Index(fields=["status", "-created_at"], name="sar_status_created"),
            # the list's sort orders, each with the primary key that breaks ties (backoffice.lists.filters)
            models.Index(fields=["created_at", "id"], name="sar_sort_created"),
            models.Index(fields=["amount_involved", "id"], name="sar_sort_amount"),
            models.Index(fields=["date_of_suspicious_activity", "id"], name="sar_sort_activity_date"),
            models.Index(fields=["status", "id"], name="sar_sort_status"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(amount_involved__gte=0), name="sar_amount_not_negative"),
            models.CheckConstraint(
                condition=Q(reviewed_by__isnull=True) | Q(filed_by__isnull=True) | ~Q(reviewed_by=F("filed_by")),
                name="sar_reviewer_is_not_filer",
            ),
            models.CheckConstraint(
                condition=Q(approved_by__isnull=True) | Q(filed_by__isnull=True) | ~Q(approved_by=F("filed_by")),
                name="sar_approver_is_not_filer",
            ),
            models.CheckConstraint(
                condition=Q(approved_by__isnull=True) | Q(reviewed_by__isnull=True) | ~Q(approved_by=F("reviewed_by")),
                name="sar_approver_is_not_reviewer",
            ),
        ]

    def __str__(self):
        return self.sar_id

    @property
    def in_progress(self) -> bool:
        """Drafted or under review: not yet filed with the FIU."""
        return self.status in IN_PROGRESS

    @property
    def report_notes_closed(self) -> str:
        """Why a note "for the report" can no longer reach the FIU ("" while it can): the report was filed, and
        what was filed never changes (casework refuses such a note instead of keeping it where nobody sends it)."""
        if self.submitted_at is None:
            return ""
        return (
            f"{self.sar_id} was filed with the FIU on {self.submitted_at:%Y-%m-%d %H:%M} UTC: a note for the report "
            "can no longer reach it. Add it as an internal comment, or file a correcting report."
        )

    def clean(self):
        errors = {}
        if self.amount_involved is not None and self.amount_involved < 0:
            errors["amount_involved"] = "The amount involved cannot be negative."
        if self.date_of_suspicious_activity and self.date_of_suspicious_activity > timezone.now().date():
            errors["date_of_suspicious_activity"] = "The date of the suspicious activity cannot be in the future."
        if self.status in REVIEWED_STATES and not self.reviewed_by_id:
            errors["reviewed_by"] = "A reviewed SAR names its reviewer."
        if self.status in APPROVED_STATES and not self.approved_by_id:
            errors["approved_by"] = "An approved SAR names its approver."
        if self.reviewed_by_id and self.reviewed_by_id == self.filed_by_id:
            errors["reviewed_by"] = "The reviewer cannot be the person who filed the SAR."
        if self.approved_by_id and self.approved_by_id in (self.filed_by_id, self.reviewed_by_id):
            errors["approved_by"] = "The approver cannot be the filer or the reviewer."
        if errors:
            raise ValidationError(errors)

    # ------------------------------------------------------------ workflow

    def content_author_ids(self) -> set:
        """Everyone who wrote the report's content: the filer, each narrative version's author, each draft editor.

        Uses the prefetched versions and edits when ``selectors.sar.sar_for_report`` loaded them.
        """
        cache = getattr(self, "_prefetched_objects_cache", {})
        versions = cache.get("narrative_versions")
        edits = cache.get("draft_edits")
        authors = {self.filed_by_id}
        authors |= (
            {v.author_id for v in versions}
            if versions is not None
            else set(self.narrative_versions.values_list("author_id", flat=True))
        )
        authors |= (
            {e.author_id for e in edits}
            if edits is not None
            else set(self.draft_edits.values_list("author_id", flat=True))
        )
        return authors - {None}

    def four_eyes_breach(self, *, actor: Actor, target: str) -> str | None:
        """Why ``actor`` may not take the move into ``target`` as the second (or third) pair of eyes, or None.

        The reviewer and the approver are independent of the content: neither filed it, nor wrote a version of
        its narrative, nor edited the draft (amount, date, type, cited evidence); the approver did not review it.
        """
        actor_id = getattr(actor, "pk", None)
        if target == SARStatus.PENDING_APPROVAL and actor_id == self.filed_by_id:
            return "The reviewer cannot be the person who filed the SAR"
        if target == SARStatus.SUBMITTED:
            if actor_id == self.filed_by_id:
                return "The approver cannot be the person who filed the SAR"
            if actor_id == self.reviewed_by_id:
                return "The approver cannot be the person who reviewed the SAR"
        if target in (SARStatus.PENDING_APPROVAL, SARStatus.SUBMITTED) and actor_id in self.content_author_ids():
            role = "reviewer" if target == SARStatus.PENDING_APPROVAL else "approver"
            return f"The {role} cannot be someone who edited the SAR (its narrative, amount, date or evidence)"
        return None

    def refuse_open_prompts(self) -> None:
        """A narrative that still holds template prompts (``[...]``) does not leave DRAFT (409 SAR_INCOMPLETE)."""
        left = narratives.open_prompt_texts(self.activity_description)
        if left:
            raise SARIncomplete(
                f"The narrative still has {len(left)} unanswered template prompt(s): " + "; ".join(left),
                details={"activity_description": [f"Unanswered prompt: {text}" for text in left]},
            )

    def check_move(self, *, actor: Actor, target: str) -> None:
        """Refuse a move outside the transition table (409, whoever asks) or beyond ``actor``'s role (403).

        What a caller can check before anything is locked; four eyes is the
        transition method's own check, made when the move happens.
        """
        if (self.status, target) not in TRANSITIONS:
            raise InvalidTransition(f"Cannot move SAR from {self.status} to {target}")
        require_role(actor, target)

    def _guard(self, actor: Actor, target: str) -> None:
        require_role(actor, target)
        breach = self.four_eyes_breach(actor=actor, target=target)
        if breach:
            raise FourEyesRequired(breach)

    @transition(
        field=status,
        source=SARStatus.DRAFT,
        target=SARStatus.PENDING_REVIEW,
        permission=may_move_to(SARStatus.PENDING_REVIEW),
    )
    def submit_for_review(self, *, actor: Actor) -> None:
        """The filer hands the draft over for review."""
        self._guard(actor, SARStatus.PENDING_REVIEW)
        self.refuse_open_prompts()

    # A reviewer or approver sends the report back for more work. Not a row of the interface's table: the
    # status endpoint refuses a move to DRAFT (TRANSITIONS below leaves these out);
    # compliance.sars.services.sar.sar_return takes them, with the reason.
    @transition(
        field=status,
        source=SARStatus.PENDING_APPROVAL,
        target=SARStatus.DRAFT,
        permission=may_return_from(SARStatus.PENDING_APPROVAL),
    )
    @transition(
        field=status,
        source=SARStatus.PENDING_REVIEW,
        target=SARStatus.DRAFT,
        permission=may_return_from(SARStatus.PENDING_REVIEW),
    )
    def return_to_draft(self, *, actor: Actor) -> None:
        """Back to DRAFT for more work; the review (if any) no longer stands, so the next one starts afresh."""
        self.check_return(actor=actor)
        if getattr(actor, "pk", None) == self.filed_by_id:
            raise FourEyesRequired("The person who filed the SAR cannot return it; a reviewer or approver does")
        self.reviewed_by = None
        self.reviewed_at = None

    def check_return(self, *, actor: Actor) -> None:
        """Refuse a return from a state that has none (409, whoever asks) or beyond ``actor``'s role (403)."""
        if (self.status, SARStatus.DRAFT) not in RETURNS:
            raise InvalidTransition(f"Cannot move SAR from {self.status} to {SARStatus.DRAFT}")
        if not may_return_from(self.status)(self, actor):
            raise Forbidden(f"Your role does not allow returning a SAR from {self.status}")

    @property
    def is_approved(self) -> bool:
        """Approved by the MLRO (and so filed): exports stop being marked DRAFT."""
        return self.status in APPROVED_STATES

    @transition(
        field=status,
        source=SARStatus.PENDING_REVIEW,
        target=SARStatus.PENDING_APPROVAL,
        permission=may_move_to(SARStatus.PENDING_APPROVAL),
    )
    def review(self, *, actor: Actor) -> None:
        """A second compliance officer reviews the report; ``actor`` becomes ``reviewed_by``."""
        self._guard(actor, SARStatus.PENDING_APPROVAL)
        self.refuse_open_prompts()
        self.reviewed_by = actor
        self.reviewed_at = timezone.now()

    @transition(
        field=status,
        source=SARStatus.PENDING_APPROVAL,
        target=SARStatus.SUBMITTED,
        permission=may_move_to(SARStatus.SUBMITTED),
    )
    def approve_and_submit(self, *, actor: Actor) -> None:
        """The MLRO approves the report and files it with the FIU; ``actor`` becomes ``approved_by``."""
        self._guard(actor, SARStatus.SUBMITTED)
        self.refuse_open_prompts()
        now = timezone.now()
        self.approved_by = actor
        self.approved_at = now
        self.submitted_at = now

    @transition(
        field=status,
        source=SARStatus.SUBMITTED,
        target=SARStatus.ACKNOWLEDGED,
        permission=may_move_to(SARStatus.ACKNOWLEDGED),
    )
    def acknowledge(self, *, actor: Actor, fiu_reference: str = "") -> None:
        """The FIU acknowledged receipt, often with its own reference number."""
        self._guard(actor, SARStatus.ACKNOWLEDGED)
        self.acknowledged_at = timezone.now()
        # the unit took the report in: that is its acceptance of the filing
        self.fiu_outcome = "ACCEPTED"
        self.fiu_answered_at = self.acknowledged_at
        if fiu_reference:
            self.fiu_reference = fiu_reference

    @transition(
        field=status,
        source=SARStatus.ACKNOWLEDGED,
        target=SARStatus.UNDER_INVESTIGATION,
        permission=may_move_to(SARStatus.UNDER_INVESTIGATION),
    )
    def start_investigation(self, *, actor: Actor) -> None:
        """The FIU opened an investigation."""
        self._guard(actor, SARStatus.UNDER_INVESTIGATION)

    # Two rows of the table end in CLOSED: after an investigation, or straight
    # from ACKNOWLEDGED (the flow diagram's shortcut).
    @transition(
        field=status,
        source=SARStatus.UNDER_INVESTIGATION,
        target=SARStatus.CLOSED,
        permission=may_move_to(SARStatus.CLOSED),
    )
    @transition(
        field=status, source=SARStatus.ACKNOWLEDGED, target=SARStatus.CLOSED, permission=may_move_to(SARStatus.CLOSED)
    )
    def close(self, *, actor: Actor) -> None:
        """The FIU's work on the report is over."""
        self._guard(actor, SARStatus.CLOSED)
        self.closed_at = timezone.now()

    # The unit refused the filing (its format or content): the report is over, and a correction replaces it.
    # Not a row of the interface's table: the status endpoint refuses it; ``sar_fiu_response`` takes it, with
    # the unit's reason.
    @transition(
        field=status,
        source=SARStatus.SUBMITTED,
        target=SARStatus.CLOSED,
        permission=may_move_to(SARStatus.CLOSED),
    )
    def reject_by_fiu(self, *, actor: Actor, reason: str) -> None:
        """The FIU rejected the report; ``reason`` is the unit's."""
        require_role(actor, SARStatus.CLOSED)
        now = timezone.now()
        self.fiu_outcome = "REJECTED"
        self.fiu_reason = reason
        self.fiu_answered_at = now
        self.closed_at = now


# (from, to) -> name of the SAR method that makes the move; read from the
# @transition declarations so the table exists in one place only. The status
# endpoint's table is the interface's: returns to DRAFT are their own action.
# The FIU's rejection is its own action (``sar_fiu_response``), like returns.
FIU_ANSWERS = frozenset({"reject_by_fiu"})
TRANSITIONS: dict[tuple[str, str], str] = {
    move: name for move, name in transition_table(SAR).items() if move[1] != SARStatus.DRAFT and name not in FIU_ANSWERS
}
RETURNS: dict[tuple[str, str], str] = {
    move: name for move, name in transition_table(SAR).items() if move[1] == SARStatus.DRAFT
}


class SARTransition(StateChange):
    """One move of a SAR from one state to another: who, when, from, to, and why. Never edited."""

    sar = models.ForeignKey(SAR, on_delete=models.CASCADE, related_name="transitions")
    from_status = models.CharField(max_length=32, choices=SARStatus.choices)
    to_status = models.CharField(max_length=32, choices=SARStatus.choices)

    class Meta(StateChange.Meta):
        app_label = "compliance"
        verbose_name = "SAR transition"

    def __str__(self):
        return f"{self.sar_id}: {self.from_status} -> {self.to_status}"


class SARNarrativeVersion(models.Model):
    """One version of a SAR's narrative (its activity description), numbered from 1. Rows are only ever added.

    Filing writes version 1; every edit that changes the text adds the next, so
    the page and an audit can show what the report said at each step, and who
    wrote it.
    """

    id = models.BigAutoField(primary_key=True)
    sar = models.ForeignKey(SAR, on_delete=models.CASCADE, related_name="narrative_versions")
    number = models.PositiveIntegerField()
    text = models.TextField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["sar", "number"]
        verbose_name = "narrative version"
        constraints = [
            models.UniqueConstraint(fields=["sar", "number"], name="sar_narrative_version_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="sar_narrative_version_from_one"),
        ]

    def __str__(self):
        return f"{self.sar_id} narrative v{self.number}"


class SARDraftEdit(models.Model):
    """One edit of a SAR's draft: who changed its content (narrative, type, date, amount, cited evidence), and what.

    Rows are only ever added, by ``compliance.sars.services.sar_drafts.sar_update``. Their authors, like the
    narrative versions' and the filer, are not independent of the report: they may neither review nor approve it.
    """

    id = models.BigAutoField(primary_key=True)
    sar = models.ForeignKey(SAR, on_delete=models.CASCADE, related_name="draft_edits")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    fields = BoundedJSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["sar", "created_at", "id"]
        verbose_name = "SAR draft edit"

    def __str__(self):
        return f"{self.sar_id} edited by {self.author_id}"


class SARFiledExport(models.Model):
    """The report exactly as filed with the FIU, in one format (HTML, text or goAML XML), stored at SUBMITTED.

    What was filed is frozen: exports after filing answer these bytes, whatever evidence is added later (the SAR
    page shows that as added after filing). ``sha256`` is the bytes' hash; the goAML one is also ``SAR.filed_sha256``.
    """

    id = models.BigAutoField(primary_key=True)
    sar = models.ForeignKey(SAR, on_delete=models.CASCADE, related_name="filed_exports")
    format = models.CharField(max_length=8)
    content = models.BinaryField()
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        verbose_name = "SAR filed export"
        constraints = [models.UniqueConstraint(fields=["sar", "format"], name="sar_filed_export_unique")]

    def __str__(self):
        return f"{self.sar_id} as filed ({self.format})"
