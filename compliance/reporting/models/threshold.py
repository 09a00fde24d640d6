"""Cash threshold reports (the contract's "Cash threshold reports"), their batches and each filing's answer.

A report is one user's one Eswatini day (Africa/Mbabane) whose COMPLETED
CASH transactions reached the active ``regulatory_reporting`` rules'
``reportingThreshold``. The database keeps it to one per user and day
(``threshold_report_one_per_user_day``), whatever path records the cash.
Reports are filed in batches; each time a report goes into a batch a
``ThresholdReportFiling`` row records it, with the unit's answer for that
filing, so a rejected report filed again keeps its whole history and its new
filing names the rejected one.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django_fsm import FSMField, transition

from backoffice.models import StateChange
from backoffice.services import Actor
from compliance.reporting.choices import BatchStatus, FiuOutcome, ThresholdReportStatus

R = ThresholdReportStatus


class ThresholdReportBatch(models.Model):
    """Threshold reports filed together: prepared by one person, submitted by another (four eyes)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # a state machine moved by compliance.reporting.services (fsm_move); not protected: tests and pages refresh it
    status = FSMField(max_length=16, choices=BatchStatus.choices, default=BatchStatus.PREPARED, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    fiu_reference = models.CharField("FIU reference", max_length=64, blank=True, default="")

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        verbose_name = "threshold report batch"
        verbose_name_plural = "threshold report batches"
        constraints = [
            models.CheckConstraint(
                condition=Q(submitted_by__isnull=True) | ~Q(submitted_by=F("created_by")),
                name="ctr_batch_submitter_is_not_preparer",
            ),
        ]

    def __str__(self):
        return f"Batch {str(self.pk)[:8]} ({self.get_status_display().lower()})"

    @transition(field=status, source=BatchStatus.PREPARED, target=BatchStatus.SUBMITTED)
    def submit(self, *, actor: Actor, fiu_reference: str) -> None:
        """Filed with the FIU under its reference, by someone other than the preparer (the service checks who)."""
        self.submitted_by = actor
        self.submitted_at = timezone.now()
        self.fiu_reference = fiu_reference


class ThresholdReport(models.Model):
    """One user's cash in one Eswatini day at or above the reporting threshold, to be filed with the FIU."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.PROTECT, related_name="threshold_reports")
    day = models.DateField(help_text="The Eswatini calendar day (Africa/Mbabane) of the cash")
    total = models.DecimalField(max_digits=14, decimal_places=2)
    threshold = models.DecimalField(max_digits=14, decimal_places=2, help_text="The threshold the day reached")
    # a state machine moved by compliance.reporting.services (fsm_move); not protected: tests and pages refresh it
    status = FSMField(max_length=16, choices=ThresholdReportStatus.choices, default=R.PENDING, db_index=True)
    transactions = models.ManyToManyField("kyc.Transaction", related_name="threshold_reports")
    batch = models.ForeignKey(
        ThresholdReportBatch, null=True, blank=True, on_delete=models.PROTECT, related_name="current_reports"
    )
    fiu_reason = models.TextField(
        "FIU reason", blank=True, default="", help_text="The FIU's reason for its last rejection"
    )
    due_at = models.DateTimeField(help_text="When the law wants it filed (CTR_FILING_DAYS after the day)")
    submitted_at = models.DateTimeField(null=True, blank=True, help_text="First submitted to the FIU")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-day", "-created_at"]
        verbose_name = "threshold report"
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="threshold_report_one_per_user_day"),
            models.CheckConstraint(condition=Q(total__gte=0), name="threshold_report_total_not_negative"),
        ]
        indexes = [models.Index(fields=["status", "day"], name="threshold_report_status_day")]

    def __str__(self):
        # the page's title and its messages: whose cash, which day, in words (issue 31: no UUID for a title)
        return f"Threshold report of {self.user} for {self.day:%-d %B %Y}"

    @transition(field=status, source=[R.PENDING, R.REJECTED], target=R.BATCHED)
    def put_in_batch(self, *, batch: ThresholdReportBatch) -> None:
        """Gathered into a prepared batch (a rejected report goes again in a new one)."""
        self.batch = batch

    @transition(field=status, source=R.BATCHED, target=R.SUBMITTED)
    def submit(self, *, at) -> None:
        """Its batch went to the FIU; ``submitted_at`` keeps the first filing (the deadline counts that one)."""
        if self.submitted_at is None:
            self.submitted_at = at

    @transition(field=status, source=R.SUBMITTED, target=R.ACCEPTED)
    def accept(self) -> None:
        """The FIU accepted the report."""

    @transition(field=status, source=R.SUBMITTED, target=R.REJECTED)
    def reject(self, *, reason: str) -> None:
        """The FIU rejected the report, with its reason; it waits to be filed again."""
        self.fiu_reason = reason


class ThresholdReportBatchEvent(StateChange):
    """One move of a batch (prepared, submitted): who and when."""

    batch = models.ForeignKey(ThresholdReportBatch, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=BatchStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=BatchStatus.choices)

    class Meta(StateChange.Meta):
        app_label = "compliance"
        verbose_name = "threshold report batch event"


class ThresholdReportEvent(StateChange):
    """One move of a threshold report (opened, batched, submitted, the FIU's answer): who, when, why."""

    report = models.ForeignKey(ThresholdReport, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=ThresholdReportStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=ThresholdReportStatus.choices)

    class Meta(StateChange.Meta):
        app_label = "compliance"
        verbose_name = "threshold report event"


class ThresholdReportFiling(models.Model):
    """One report in one batch, and the FIU's answer to it; ``resubmits`` names the rejected filing it replaces."""

    id = models.BigAutoField(primary_key=True)
    batch = models.ForeignKey(ThresholdReportBatch, on_delete=models.PROTECT, related_name="filings")
    report = models.ForeignKey(ThresholdReport, on_delete=models.PROTECT, related_name="filings")
    resubmits = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="resubmitted_as"
    )
    outcome = models.CharField(max_length=16, choices=FiuOutcome.choices, blank=True, default="")
    reason = models.TextField(blank=True, default="")
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["batch", "report"]
        verbose_name = "threshold report filing"
        constraints = [
            models.UniqueConstraint(fields=["batch", "report"], name="threshold_filing_once_per_batch"),
            models.CheckConstraint(
                condition=~Q(outcome="REJECTED") | ~Q(reason=""), name="threshold_filing_rejection_has_reason"
            ),
        ]

    def __str__(self):
        return f"{self.report} in {self.batch}: {self.get_outcome_display().lower() or 'no answer'}"
