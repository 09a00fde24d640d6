"""A batch scan of the ledger by the AML rules, done rule by rule so that it can be resumed and repeated."""

from django.db import models

from compliance.aml.choices import ScanStatus, ScanTrigger


class AMLScan(models.Model):
    """One run of the active rules over [since, until]: which rules it takes, which are done, what they found.

    Each rule is one step (``compliance.aml.services.scans.aml_scan_rule``): its alerts and its entry in
    ``rules_done`` commit in one transaction, so a task delivered twice, or resumed after its worker died,
    runs no rule twice (alerts are deduplicated per rule and hit anyway). A periodic scan carries beat's
    ``period`` key, unique: a period sent twice makes one scan.
    """

    id = models.BigAutoField(primary_key=True)
    trigger = models.CharField(max_length=12, choices=ScanTrigger.choices)
    period = models.CharField(max_length=120, null=True, blank=True, unique=True)
    status = models.CharField(max_length=12, choices=ScanStatus.choices, default=ScanStatus.RUNNING, db_index=True)
    since = models.DateTimeField()
    until = models.DateTimeField()
    rule_ids = models.JSONField(default=list, help_text="The rules to run (primary keys), in order")
    rules_done = models.JSONField(default=list, blank=True)
    hits = models.PositiveIntegerField(default=0)
    alerts_created = models.PositiveIntegerField(default=0)
    errors = models.PositiveIntegerField(default=0)
    per_rule = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    progressed_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-started_at", "-id"]
        verbose_name = "AML scan"

    def __str__(self):
        return f"AML scan #{self.pk} {self.since:%Y-%m-%d %H:%M}..{self.until:%Y-%m-%d %H:%M} ({self.status})"
