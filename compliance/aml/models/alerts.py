import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from backoffice.fsm import transition_table
from backoffice.models import StateChange
from compliance.aml.choices import AlertStatus, AlertType, CloseReason
from compliance.casework.choices import Severity

S = AlertStatus
OPEN_STATES = (S.OPEN, S.UNDER_REVIEW, S.ESCALATED)
CLOSED_STATES = frozenset({S.CLOSED_FALSE_POSITIVE, S.CLOSED_SAR_FILED, S.CLOSED_TRUE_POSITIVE})


class Alert(ConcurrentTransitionMixin, models.Model):
    """Something an officer must look at: a rule hit on transactions, or a PEP name match.

    ``dedup_key`` makes an alert unique per rule and set of transactions (or
    per user and PEP name), so re-running the engine never duplicates one.
    ``status`` is a protected state machine: it moves only through the
    ``@transition`` methods below, called by ``compliance.aml.services.alerts``.
    A closed alert may be reopened, never silently: reopening is a move of
    its own that needs the officer's reason. ``closed_at`` and
    ``close_reason_code`` describe the latest closing and are cleared on reopening.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    alert_type = models.CharField(max_length=24, choices=AlertType.choices, default=AlertType.RULE)
    rule = models.ForeignKey(
        "compliance.AMLRule", null=True, blank=True, on_delete=models.SET_NULL, related_name="alerts"
    )
    rule_version = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.CASCADE, related_name="alerts")
    severity = models.CharField(max_length=8, choices=Severity.choices, default=Severity.MEDIUM, db_index=True)
    status = FSMField(max_length=24, choices=AlertStatus.choices, default=S.OPEN, protected=True, db_index=True)
    details = models.JSONField(default=dict, blank=True)
    related_transactions = models.ManyToManyField("kyc.Transaction", blank=True, related_name="alerts")
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="alerts_assigned"
    )
    close_reason_code = models.CharField(max_length=32, choices=CloseReason.choices, blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True)
    dedup_key = models.CharField(max_length=128, unique=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "severity", "-created_at"], name="alert_queue")]

    def __str__(self):
        source = self.details.get("rule_id") if self.alert_type == AlertType.RULE else self.get_alert_type_display()
        return f"{self.severity} alert {str(self.pk)[:8]}: {source or self.alert_type}"

    @property
    def is_closed(self) -> bool:
        return self.status in CLOSED_STATES

    @property
    def report_notes_closed(self) -> str:
        """Why a note "for the report" on this alert can no longer reach the FIU ("" while it can): the SAR that
        reports it was filed (a closed alert is never cited by a new report unless it is reopened)."""
        if self.status != S.CLOSED_SAR_FILED:
            return ""
        return (
            "The SAR that reports this alert was filed with the FIU: a note for the report can no longer reach it. "
            "Add it as an internal comment, or reopen the alert for a new report."
        )

    # ------------------------------------------------------------ workflow

    @transition(field=status, source=[S.OPEN, S.ESCALATED], target=S.UNDER_REVIEW)
    def start_review(self) -> None:
        """An officer picks the alert up (or takes an escalated one back into review)."""

    @transition(field=status, source=S.UNDER_REVIEW, target=S.OPEN)
    def return_to_queue(self) -> None:
        """The review stops without a decision; the alert waits in the queue again."""

    @transition(field=status, source=[S.OPEN, S.UNDER_REVIEW], target=S.ESCALATED)
    def escalate(self) -> None:
        """The alert needs a senior officer or a SAR."""

    @transition(field=status, source=list(OPEN_STATES), target=S.CLOSED_FALSE_POSITIVE)
    def close_false_positive(self, *, reason_code: str = "") -> None:
        """Looked at and explained: nothing suspicious (``reason_code`` says which explanation)."""
        self.closed_at = timezone.now()
        self.close_reason_code = reason_code

    @transition(field=status, source=list(OPEN_STATES), target=S.CLOSED_TRUE_POSITIVE)
    def close_true_positive(self, *, reason_code: str = "") -> None:
        """Decided as the alert suspected (a PEP match confirmed, a held transaction rejected), without a SAR."""
        self.closed_at = timezone.now()
        self.close_reason_code = reason_code

    @transition(field=status, source=list(OPEN_STATES), target=S.CLOSED_SAR_FILED)
    def close_sar_filed(self) -> None:
        """A SAR reports what the alert found."""
        self.closed_at = timezone.now()
        self.close_reason_code = ""

    @transition(field=status, source=list(CLOSED_STATES), target=S.OPEN)
    def reopen(self) -> None:
        """A closed alert goes back to the queue (new facts, a wrong decision); the service requires a note."""
        self.closed_at = None
        self.close_reason_code = ""


# (from, to) -> the Alert method that makes the move, read from the declarations above.
ALERT_TRANSITIONS: dict[tuple[str, str], str] = transition_table(Alert)


class AlertEvent(StateChange):
    """A change of an alert's status or assignee, with the officer's note (from == to for an assignment)."""

    alert = models.ForeignKey(Alert, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=AlertStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=AlertStatus.choices, blank=True, default="")
    reason_code = models.CharField(max_length=32, choices=CloseReason.choices, blank=True, default="")

    class Meta(StateChange.Meta):
        app_label = "compliance"
        verbose_name = "alert event"
