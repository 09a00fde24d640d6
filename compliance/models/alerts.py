import uuid

from django.conf import settings
from django.db import models

from compliance.choices import AlertStatus, AlertType, Severity


class Alert(models.Model):
    """Something an officer must look at: a rule hit on transactions, or a PEP name match.

    ``dedup_key`` makes an alert unique per rule and set of transactions (or
    per user and PEP name), so re-running the engine never duplicates one.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    alert_type = models.CharField(max_length=12, choices=AlertType.choices, default=AlertType.RULE)
    rule = models.ForeignKey(
        "compliance.AMLRule", null=True, blank=True, on_delete=models.SET_NULL, related_name="alerts"
    )
    rule_version = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.CASCADE, related_name="alerts")
    severity = models.CharField(max_length=8, choices=Severity.choices, default=Severity.MEDIUM, db_index=True)
    status = models.CharField(max_length=24, choices=AlertStatus.choices, default=AlertStatus.OPEN, db_index=True)
    details = models.JSONField(default=dict, blank=True)
    related_transactions = models.ManyToManyField("kyc.Transaction", blank=True, related_name="alerts")
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="alerts_assigned"
    )
    dedup_key = models.CharField(max_length=128, unique=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "severity", "-created_at"], name="alert_queue")]

    def __str__(self):
        source = self.details.get("ruleId") if self.alert_type == "RULE" else "PEP match"
        return f"{self.severity} alert {str(self.pk)[:8]}: {source or self.alert_type}"


class AlertEvent(models.Model):
    """A change of an alert's status or assignee, with the officer's note."""

    id = models.BigAutoField(primary_key=True)
    alert = models.ForeignKey(Alert, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=24, choices=AlertStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=24, choices=AlertStatus.choices, blank=True, default="")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.alert_id}: {self.from_status} -> {self.to_status}"
