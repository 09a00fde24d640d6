"""An identity verification job: a user's ID images and selfie, the engine's findings and the decision."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django_fsm import FSMField, transition

from backoffice.jsondepth import BoundedJSONField
from backoffice.models import StateChange
from verification.choices import Decision, JobStatus, RejectionCode, Stage
from verification.stages import initial_progress

S = JobStatus


def empty_stage_progress() -> dict:

    return initial_progress()


class VerificationJob(models.Model):
    """One run of the identity check for one user (the interface's "verification job").

    The images are the user's KYC documents (kyc.KycDocument). What the engine found is kept as it was
    produced: the quality report, the OCR fields, the face comparison, the duplicates, the per-stage times,
    and which engine, model versions and thresholds produced them, so a decision can be explained later.
    ``user`` is null once the user was purged: the job then answers "KYC user data not found".

    ``status`` is a state machine (the ``@transition`` methods below), moved by ``verification.services.jobs``
    through ``backoffice.services.fsm_move``: every move leaves a ``VerificationJobEvent``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(
        "kyc.PlatformUser", on_delete=models.SET_NULL, null=True, blank=True, related_name="verification_jobs"
    )
    record = models.OneToOneField(
        "kyc.VerificationRecord", on_delete=models.SET_NULL, null=True, blank=True, related_name="job"
    )
    id_front = models.ForeignKey("kyc.KycDocument", on_delete=models.SET_NULL, null=True, related_name="+")
    id_back = models.ForeignKey("kyc.KycDocument", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    selfie = models.ForeignKey("kyc.KycDocument", on_delete=models.SET_NULL, null=True, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Not protected=True like the other state machines: job_process re-reads the job it runs (refresh_from_db),
    # and django-fsm-2 refreshes a protected field by switching protection off on the field shared by every
    # instance for a moment, which two runs in two threads of one process would trip over.
    status = FSMField(max_length=10, choices=JobStatus.choices, default=JobStatus.PENDING, db_index=True)
    current_stage = models.CharField(max_length=20, choices=Stage.choices, default=Stage.SUBMITTED)
    progress = models.PositiveSmallIntegerField(default=0)
    stage_progress = BoundedJSONField(default=empty_stage_progress)
    quality = BoundedJSONField(default=dict, blank=True)
    ocr_result = BoundedJSONField(null=True, blank=True)
    # the ID number the OCR read, as it is compared (kyc.identity.id_number_key): written as soon as it is read,
    # before the duplicate search, so that checks of one number on several accounts at once find each other
    id_number_key = models.CharField(
        max_length=32, blank=True, default="", db_default="", editable=False, db_index=True
    )
    face_result = BoundedJSONField(null=True, blank=True)
    checks = BoundedJSONField(default=list, blank=True, help_text="The decision rule's checks, in order")
    duplicates = BoundedJSONField(default=list, blank=True)
    decision = models.CharField(max_length=14, choices=Decision.choices, blank=True, default="", db_index=True)
    rejection_code = models.CharField(max_length=16, choices=RejectionCode.choices, blank=True, default="")
    rejection_reason = models.TextField(blank=True, default="")
    error = models.TextField(blank=True, default="", help_text="The provider error of a FAILED run")
    timings = BoundedJSONField(default=dict, blank=True, help_text="Seconds spent in each stage")
    engine = models.CharField(max_length=16, blank=True, default="")
    engine_versions = BoundedJSONField(default=dict, blank=True)
    thresholds = BoundedJSONField(default=dict, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True, default="")
    # approving against possible duplicates takes two people: the first approval is a proposal, with its reason
    approval_proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    approval_proposed_at = models.DateTimeField(null=True, blank=True)
    approval_proposal_note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "verification job"
        indexes = [models.Index(fields=["user", "-created_at"], name="verif_job_user_created")]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="verif_job_progress_max_100"),
            models.CheckConstraint(condition=Q(status__in=JobStatus.values), name="verif_job_status_valid"),
            models.CheckConstraint(
                condition=Q(decision="") | Q(decision__in=Decision.values), name="verif_job_decision_valid"
            ),
            # a finished job always carries its decision; a rejected one says why
            models.CheckConstraint(
                condition=~Q(status__in=[JobStatus.COMPLETED, JobStatus.REJECTED]) | ~Q(decision=""),
                name="verif_job_finished_has_decision",
            ),
            models.CheckConstraint(
                condition=~Q(status=JobStatus.REJECTED) | ~Q(rejection_reason=""),
                name="verif_job_rejected_has_reason",
            ),
        ]

    def __str__(self):
        return f"Verification {str(self.pk)[:8]} ({self.get_status_display().lower()})"

    @property
    def is_finished(self) -> bool:
        """The automated run is over (a manual_review job is COMPLETED and waits for an officer)."""
        return self.status in (JobStatus.COMPLETED, JobStatus.REJECTED)

    @property
    def awaits_review(self) -> bool:
        return self.decision == Decision.MANUAL_REVIEW and self.decided_at is None

    # ------------------------------------------------------------ the run

    @transition(field=status, source=[S.PENDING, S.FAILED, S.PROCESSING], target=S.PROCESSING)
    def claim(self) -> None:
        """A run takes the job: a new one, a failed one again, or one whose run stopped answering (a stale claim;
        the service decides which claims are free)."""

    @transition(field=status, source=S.PROCESSING, target=S.FAILED)
    def fail(self) -> None:
        """A provider error stopped the run; the job may be processed again."""

    @transition(field=status, source=S.PROCESSING, target=S.COMPLETED)
    def complete(self) -> None:
        """The decision rule approved, or asked for an officer (decision ``manual_review``)."""

    @transition(field=status, source=S.PROCESSING, target=S.REJECTED)
    def reject(self) -> None:
        """The decision rule rejected (image quality, another face, an expired card)."""

    # ------------------------------------------------------------ an officer's decision on a job in manual review

    @transition(field=status, source=S.COMPLETED, target=S.COMPLETED)
    def officer_approve(self) -> None:
        """A compliance officer approves a job the rule left for review."""

    @transition(field=status, source=S.COMPLETED, target=S.REJECTED)
    def officer_reject(self) -> None:
        """A compliance officer rejects a job the rule left for review."""


class VerificationJobEvent(StateChange):
    """One move of a job's status: submitted, taken by a run, failed, decided by the rule or by an officer.

    Who (empty for the system: a run a platform user started, the rule), when and why; never edited.
    """

    job = models.ForeignKey(VerificationJob, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=JobStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=JobStatus.choices)

    class Meta(StateChange.Meta):
        verbose_name = "job status change"

    def __str__(self):
        return f"{self.from_status or '(new)'} -> {self.to_status}"  # shown under its job: no job id
