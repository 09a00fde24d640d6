from django.db import models


class RuleType(models.TextChoices):
    THRESHOLD = "threshold", "Threshold"
    STRUCTURING = "structuring", "Structuring"
    VELOCITY = "velocity", "Velocity"
    BEHAVIORAL = "behavioral", "Behavioural"
    PEP_RELATED = "pep_related", "PEP-related"
    NETWORK_ANALYSIS = "network_analysis", "Network analysis"
    HIGH_RISK_TRANSACTION = "high_risk_transaction", "High-risk transaction"
    PATTERN_DETECTION = "pattern_detection", "Pattern detection"
    ACCOUNT_LIFECYCLE = "account_lifecycle", "Account lifecycle"
    DIGITAL_WALLET = "digital_wallet", "Digital wallet"
    MOBILE_MONEY = "mobile_money", "Mobile money"
    VENDOR_SPECIFIC = "vendor_specific", "Vendor-specific"
    CFT_RELATED = "cft_related", "Counter-terrorist financing"
    REGIONAL_RISK = "regional_risk", "Regional risk"
    REGULATORY_REPORTING = "regulatory_reporting", "Regulatory reporting"
    BUSINESS_SECTOR = "business_sector", "Business sector"


class AlertType(models.TextChoices):
    RULE = "RULE", "Rule hit"
    PEP_MATCH = "PEP_MATCH", "PEP match"
    DUPLICATE_IDENTITY = "DUPLICATE_IDENTITY", "Duplicate identity"
    SANCTIONS_MATCH = "SANCTIONS_MATCH", "Sanctions match"


class AlertStatus(models.TextChoices):
    OPEN = "OPEN", "Open"
    UNDER_REVIEW = "UNDER_REVIEW", "Under review"
    ESCALATED = "ESCALATED", "Escalated"
    CLOSED_FALSE_POSITIVE = "CLOSED_FALSE_POSITIVE", "Closed: false positive"
    CLOSED_SAR_FILED = "CLOSED_SAR_FILED", "Closed: SAR filed"
    # set only by a service that decided what the alert asked (a PEP match confirmed, a held transaction rejected):
    # the alert was right, and counting it as a false positive would distort every rule's false-positive rate
    CLOSED_TRUE_POSITIVE = "CLOSED_TRUE_POSITIVE", "Closed: confirmed (true positive)"


# The statuses an officer may ask for by hand (API, admin); a true positive is a service's decision.
OFFICER_STATUSES = [(value, label) for value, label in AlertStatus.choices if value != AlertStatus.CLOSED_TRUE_POSITIVE]


class CloseReason(models.TextChoices):
    """Why an alert was closed as a false positive (required with the note).

    The first five are an officer's choice (the interface's codes); the PEP ones are set only by a PEP match
    review, which decides the match's alert: the question it asked ("is this user that PEP?") is answered.
    """

    EXPLAINED_ACTIVITY = "EXPLAINED_ACTIVITY", "Activity explained"
    KNOWN_CUSTOMER_PATTERN = "KNOWN_CUSTOMER_PATTERN", "Known customer pattern"
    DATA_ERROR = "DATA_ERROR", "Data error"
    DUPLICATE_ALERT = "DUPLICATE_ALERT", "Duplicate alert"
    OTHER = "OTHER", "Other"
    PEP_MATCH_DISMISSED = "PEP_MATCH_DISMISSED", "PEP match dismissed: not this PEP"
    PEP_MATCH_CONFIRMED = "PEP_MATCH_CONFIRMED", "PEP match confirmed: handled as a PEP"
    SANCTIONS_MATCH_DISMISSED = "SANCTIONS_MATCH_DISMISSED", "Sanctions match dismissed: not the listed party"
    SANCTIONS_ENTRY_REMOVED = "SANCTIONS_ENTRY_REMOVED", "Sanctions match closed: the entry left its list"
    HELD_TRANSACTION_RELEASED = "HELD_TRANSACTION_RELEASED", "Held transaction released after review"
    HELD_TRANSACTION_REJECTED = "HELD_TRANSACTION_REJECTED", "Held transaction rejected after review"


# The reasons an officer may pick when closing an alert by hand (API, admin); the others belong to a service.
OFFICER_CLOSE_REASONS = [
    (value, label)
    for value, label in CloseReason.choices
    if value
    not in (
        CloseReason.PEP_MATCH_DISMISSED,
        CloseReason.PEP_MATCH_CONFIRMED,
        CloseReason.SANCTIONS_MATCH_DISMISSED,
        CloseReason.SANCTIONS_ENTRY_REMOVED,
        CloseReason.HELD_TRANSACTION_RELEASED,
        CloseReason.HELD_TRANSACTION_REJECTED,
    )
]


class ProposalStatus(models.TextChoices):
    """A proposed rule change under four eyes: waiting, taken into a new version, or turned down."""

    PENDING = "PENDING", "Pending approval"
    APPROVED = "APPROVED", "Approved"
    REJECTED = "REJECTED", "Rejected"


class ScanTrigger(models.TextChoices):
    MANUAL = "MANUAL", "Command"
    PERIODIC = "PERIODIC", "Periodic"


class ScanStatus(models.TextChoices):
    RUNNING = "RUNNING", "Running"
    COMPLETED = "COMPLETED", "Completed"
