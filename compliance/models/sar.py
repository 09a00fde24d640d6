import uuid

from django.conf import settings
from django.db import models
from django_fsm import FSMField

from compliance.choices import ActivityType, SARStatus


class SAR(models.Model):
    """A suspicious activity report about one user, moved through review, approval and the FIU's answers.

    ``status`` is a protected FSM field: it changes only through the
    ``@transition`` methods, called by ``compliance.services.sar_transition``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    sar_id = models.CharField(max_length=40, unique=True, editable=False)
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
    fiu_reference = models.CharField(max_length=64, blank=True, default="")
    drafted_at = models.DateTimeField(auto_now_add=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    approved_at = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "SAR"
        verbose_name_plural = "SARs"
        indexes = [models.Index(fields=["status", "-created_at"], name="sar_status_created")]

    def __str__(self):
        return self.sar_id


class SARTransition(models.Model):
    """One move of a SAR from one state to another: who, when, from, to, and why."""

    id = models.BigAutoField(primary_key=True)
    sar = models.ForeignKey(SAR, on_delete=models.CASCADE, related_name="transitions")
    from_status = models.CharField(max_length=24, choices=SARStatus.choices)
    to_status = models.CharField(max_length=24, choices=SARStatus.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.sar_id}: {self.from_status} -> {self.to_status}"
