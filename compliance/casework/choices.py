from django.db import models


class Severity(models.TextChoices):
    LOW = "LOW", "Low"
    MEDIUM = "MEDIUM", "Medium"
    HIGH = "HIGH", "High"
    CRITICAL = "CRITICAL", "Critical"


class Priority(models.TextChoices):
    """How pressing a piece of case work is: the share of its deadline already spent (compliance.casework.deadlines)."""

    NEW = "NEW", "New"
    URGENT = "URGENT", "Urgent"
    CRITICAL = "CRITICAL", "Critical"
    BREACHED = "BREACHED", "Breached"
