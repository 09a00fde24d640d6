from django.db import models


class VerificationStatus(models.TextChoices):
    PENDING = "PENDING", "Pending"
    VERIFIED = "VERIFIED", "Verified"
    REJECTED = "REJECTED", "Rejected"


class RiskRating(models.TextChoices):
    LOW = "LOW", "Low"
    MEDIUM = "MEDIUM", "Medium"
    HIGH = "HIGH", "High"


# A score from here up is rated MEDIUM, and from HIGH_FROM up HIGH (the demo users follow the same bands).
MEDIUM_FROM = 40
HIGH_FROM = 70


def risk_rating_for(score: int) -> str:
    """The rating a score implies: LOW below 40, MEDIUM from 40, HIGH from 70."""
    if score >= HIGH_FROM:
        return RiskRating.HIGH
    if score >= MEDIUM_FROM:
        return RiskRating.MEDIUM
    return RiskRating.LOW


class Sex(models.TextChoices):
    MALE = "MALE", "Male"
    FEMALE = "FEMALE", "Female"


class DocumentType(models.TextChoices):
    ID_FRONT = "ID_FRONT", "ID front"
    ID_BACK = "ID_BACK", "ID back"
    SELFIE = "SELFIE", "Selfie"


class TransactionType(models.TextChoices):
    TOP_UP = "TOP_UP", "Top-up"
    TRANSFER_IN = "TRANSFER_IN", "Transfer in"
    TRANSFER_OUT = "TRANSFER_OUT", "Transfer out"
    VENDOR_PAYMENT = "VENDOR_PAYMENT", "Payment to a vendor"
    WITHDRAWAL = "WITHDRAWAL", "Withdrawal"
    CARD_PAYMENT = "CARD_PAYMENT", "Card payment"
    ADMIN_CREDIT = "ADMIN_CREDIT", "Admin credit"


# Types that add to the wallet; every other type takes from it.
CREDIT_TYPES = frozenset({TransactionType.TOP_UP, TransactionType.TRANSFER_IN, TransactionType.ADMIN_CREDIT})


class TransactionStatus(models.TextChoices):
    PENDING = "PENDING", "Pending"
    COMPLETED = "COMPLETED", "Completed"
    FAILED = "FAILED", "Failed"
    REVERSED = "REVERSED", "Reversed"
    # decided before the money moved (contract: transactions from the payment platform): no balance change
    HELD = "HELD", "Held for review"
    BLOCKED = "BLOCKED", "Blocked"
    REJECTED = "REJECTED", "Rejected after review"


class Channel(models.TextChoices):
    WALLET = "WALLET", "Wallet"
    MOBILE_MONEY = "MOBILE_MONEY", "Mobile money"
    CARD = "CARD", "Card"
    BANK = "BANK", "Bank"
    CASH = "CASH", "Cash at an agent"


class VerificationType(models.TextChoices):
    IDENTITY = "IDENTITY", "Identity document and selfie"
    PHONE = "PHONE", "Phone number"


class CreditStatus(models.TextChoices):
    """Where a staff credit stands: credited at once, or waiting for a second person (maker-checker)."""

    CREDITED = "CREDITED", "Credited (no approval needed)"
    PENDING = "PENDING", "Awaiting approval"
    APPROVED = "APPROVED", "Approved and credited"
    REJECTED = "REJECTED", "Rejected"


class Decision(models.TextChoices):
    """The answer to the payment platform before the money moves (strongest wins: BLOCK > REVIEW > ALLOW)."""

    ALLOW = "ALLOW", "Allow"
    REVIEW = "REVIEW", "Hold for review"
    BLOCK = "BLOCK", "Block"


DECISION_STRENGTH = {Decision.ALLOW: 0, Decision.REVIEW: 1, Decision.BLOCK: 2}


class HitAction(models.TextChoices):
    """What one rule hit asks for: only its alert, a hold, or a block."""

    ALERT = "ALERT", "Alert only"
    HOLD = "HOLD", "Hold"
    BLOCK = "BLOCK", "Block"


# The types the payment platform may send (ADMIN_CREDIT is staff's own path)
INTAKE_TYPES = [t for t in TransactionType.values if t != TransactionType.ADMIN_CREDIT]
