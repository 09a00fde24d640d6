from django.db import models


class StaffRole(models.TextChoices):
    SUPPORT = "support", "Support"
    COMPLIANCE_OFFICER = "compliance_officer", "Compliance officer"
    MLRO = "mlro", "Money-laundering reporting officer"
    FINANCE = "finance", "Finance"
    ADMIN = "admin", "Administrator"


class OtpPurpose(models.TextChoices):
    PHONE_VERIFICATION = "phone_verification", "Phone verification"


class WebhookEventType(models.TextChoices):
    """What the payment platform can subscribe to (contract: events to the payment platform)."""

    TRANSACTION_RELEASED = "transaction.released", "A held transaction was released"
    TRANSACTION_REJECTED = "transaction.rejected", "A held transaction was rejected"
    USER_FROZEN = "user.frozen", "A customer was frozen"
    USER_UNFROZEN = "user.unfrozen", "A customer was unfrozen"
    USER_VERIFICATION_COMPLETED = "user.verification_completed", "A customer's verification finished"


class DeliveryStatus(models.TextChoices):
    PENDING = "PENDING", "Pending"
    DELIVERED = "DELIVERED", "Delivered"
    FAILED = "FAILED", "Failed"


class ApprovalStatus(models.TextChoices):
    """Where a dual-control request stands (docs/dual-control.md). Only PENDING moves; the others are final,
    except APPROVED, which the same transaction moves to APPLIED once the change is made."""

    PENDING = "PENDING", "Waiting for a second person"
    APPROVED = "APPROVED", "Approved"
    REJECTED = "REJECTED", "Rejected"
    EXPIRED = "EXPIRED", "Expired"
    APPLIED = "APPLIED", "Applied"
