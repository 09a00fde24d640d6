from django.db import models


class SARStatus(models.TextChoices):
    DRAFT = "DRAFT", "Draft"
    PENDING_REVIEW = "PENDING_REVIEW", "Pending review"
    PENDING_APPROVAL = "PENDING_APPROVAL", "Pending approval"
    SUBMITTED = "SUBMITTED", "Submitted to the FIU"
    ACKNOWLEDGED = "ACKNOWLEDGED", "Acknowledged by the FIU"
    UNDER_INVESTIGATION = "UNDER_INVESTIGATION", "Under investigation"
    CLOSED = "CLOSED", "Closed"


class ActivityType(models.TextChoices):
    STRUCTURING = "structuring", "Structuring"
    LARGE_CASH = "large_cash", "Large cash transactions"
    UNUSUAL_PATTERN = "unusual_pattern", "Unusual transaction pattern"
    MONEY_LAUNDERING = "money_laundering", "Suspected money laundering"
    FRAUD = "fraud", "Fraud"
    TERRORIST_FINANCING = "terrorist_financing", "Terrorist financing"
    SANCTIONS_VIOLATION = "sanctions_violation", "Sanctions violation"
    OTHER = "other", "Other suspicious activity"
