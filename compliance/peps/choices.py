from django.db import models


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
    PERIODIC = "PERIODIC", "Periodic re-screening"


class ScreeningStatus(models.TextChoices):
    RUNNING = "RUNNING", "Running"
    COMPLETED = "COMPLETED", "Completed"
    FAILED = "FAILED", "Failed"


class ScreeningChannel(models.TextChoices):
    ADMIN = "ADMIN", "Admin site"
    API = "API", "API"
    COMMAND = "COMMAND", "Management command"
