from django.db import models


class ThresholdReportStatus(models.TextChoices):
    PENDING = "PENDING", "Pending (not yet in a batch)"
    BATCHED = "BATCHED", "In a prepared batch"
    SUBMITTED = "SUBMITTED", "Submitted to the FIU"
    ACCEPTED = "ACCEPTED", "Accepted by the FIU"
    REJECTED = "REJECTED", "Rejected by the FIU"


class BatchStatus(models.TextChoices):
    PREPARED = "PREPARED", "Prepared"
    SUBMITTED = "SUBMITTED", "Submitted to the FIU"


class FiuOutcome(models.TextChoices):
    ACCEPTED = "ACCEPTED", "Accepted"
    REJECTED = "REJECTED", "Rejected"
