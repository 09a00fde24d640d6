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


class Severity(models.TextChoices):
    LOW = "LOW", "Low"
    MEDIUM = "MEDIUM", "Medium"
    HIGH = "HIGH", "High"
    CRITICAL = "CRITICAL", "Critical"


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


class AlertStatus(models.TextChoices):
    OPEN = "OPEN", "Open"
    UNDER_REVIEW = "UNDER_REVIEW", "Under review"
    ESCALATED = "ESCALATED", "Escalated"
    CLOSED_FALSE_POSITIVE = "CLOSED_FALSE_POSITIVE", "Closed: false positive"
    CLOSED_SAR_FILED = "CLOSED_SAR_FILED", "Closed: SAR filed"


class Priority(models.TextChoices):
    """How pressing a piece of case work is: the share of its deadline already spent (compliance.deadlines)."""

    NEW = "NEW", "New"
    URGENT = "URGENT", "Urgent"
    CRITICAL = "CRITICAL", "Critical"
    BREACHED = "BREACHED", "Breached"


class CloseReason(models.TextChoices):
    """Why an officer closed an alert as a false positive (required with the note)."""

    EXPLAINED_ACTIVITY = "EXPLAINED_ACTIVITY", "Activity explained"
    KNOWN_CUSTOMER_PATTERN = "KNOWN_CUSTOMER_PATTERN", "Known customer pattern"
    DATA_ERROR = "DATA_ERROR", "Data error"
    DUPLICATE_ALERT = "DUPLICATE_ALERT", "Duplicate alert"
    OTHER = "OTHER", "Other"


class PEPCategory(models.TextChoices):
    HEAD_OF_STATE = "Head of State", "Head of State"
    GOVERNMENT_OFFICIAL = "Government Official", "Government Official"
    SENIOR_POLITICIAN = "Senior Politician", "Senior Politician"
    MILITARY_OFFICER = "Military Officer", "Military Officer"
    JUDGE = "Judge", "Judge"
    CENTRAL_BANK_OFFICIAL = "Central Bank Official", "Central Bank Official"
    STATE_ENTERPRISE_EXECUTIVE = "State Enterprise Executive", "State Enterprise Executive"
    FAMILY_MEMBER = "Family Member", "Family Member"
    CLOSE_ASSOCIATE = "Close Associate", "Close Associate"
    UNKNOWN = "Unknown", "Unknown"


class PEPMatchStatus(models.TextChoices):
    POTENTIAL = "POTENTIAL", "Potential"
    CONFIRMED = "CONFIRMED", "Confirmed"
    DISMISSED = "DISMISSED", "Dismissed"


class ScreeningTrigger(models.TextChoices):
    PEP_CREATED = "PEP_CREATED", "PEP created"
    PEP_BULK = "PEP_BULK", "PEP bulk upload"
    PEP_UPDATED = "PEP_UPDATED", "PEP updated"
    PEP_IMPORT = "PEP_IMPORT", "PEP list import"
    USER_REGISTERED = "USER_REGISTERED", "User registered"
    USER_NAME_CHANGED = "USER_NAME_CHANGED", "User renamed"
    PENDING = "PENDING", "Unscreened PEPs"
    FULL = "FULL", "Whole list against all users"


class ScreeningStatus(models.TextChoices):
    RUNNING = "RUNNING", "Running"
    COMPLETED = "COMPLETED", "Completed"
    FAILED = "FAILED", "Failed"
