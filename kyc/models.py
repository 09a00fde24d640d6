import uuid
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from kyc.choices import (
    CREDIT_TYPES,
    Channel,
    DocumentType,
    RiskRating,
    Sex,
    TransactionStatus,
    TransactionType,
    VerificationStatus,
    VerificationType,
)

MONEY = {"max_digits": 14, "decimal_places": 2}


class PlatformUser(models.Model):
    """A wallet holder of the payment platform: the subject of KYC, AML and SARs.

    The balance is never written directly: it changes only together with a
    ledger ``Transaction`` (``kyc.services.transaction_record``), so the
    ledger always explains it.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    phone_number = models.CharField(max_length=20, unique=True, help_text="E.164, e.g. +26876123456")
    email = models.EmailField(blank=True, default="")
    password = models.CharField(max_length=128)
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    names = models.CharField(max_length=200, blank=True, default="", help_text="Legacy given names")
    surname = models.CharField(max_length=100, blank=True, default="", help_text="Legacy surname")
    id_number = models.CharField(max_length=32, blank=True, default="", db_index=True)
    date_of_birth = models.DateField(null=True, blank=True)
    sex = models.CharField(max_length=6, choices=Sex.choices, blank=True, default="")
    nationality = models.CharField(max_length=64, blank=True, default="")
    occupation = models.CharField(max_length=100, blank=True, default="")
    region = models.CharField(max_length=64, blank=True, default="", help_text="Region of residence")
    country = models.CharField(max_length=2, default="SZ", help_text="ISO 3166-1 alpha-2")
    verification_status = models.CharField(
        max_length=10, choices=VerificationStatus.choices, default=VerificationStatus.PENDING, db_index=True
    )
    risk_rating = models.CharField(max_length=6, choices=RiskRating.choices, default=RiskRating.LOW, db_index=True)
    current_risk_score = models.PositiveSmallIntegerField(
        default=0, validators=[MinValueValidator(0), MaxValueValidator(100)]
    )
    is_potential_pep = models.BooleanField(default=False)
    balance = models.DecimalField(**MONEY, default=Decimal("0.00"))
    nfc_card_number = models.CharField(max_length=32, null=True, blank=True, unique=True)
    rewards_points = models.PositiveIntegerField(default=0)
    referral_code = models.CharField(max_length=16, unique=True)
    is_verified = models.BooleanField(default=False)
    is_phone_verified = models.BooleanField(default=False)
    is_archived = models.BooleanField(default=False, db_index=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    last_login = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "KYC user"
        constraints = [
            models.UniqueConstraint(
                fields=["email"],
                condition=~Q(email=""),
                name="kyc_user_email_unique",
                violation_error_message="An account with this email already exists.",
            ),
            models.CheckConstraint(condition=Q(balance__gte=0), name="kyc_user_balance_not_negative"),
            models.CheckConstraint(
                condition=Q(current_risk_score__gte=0) & Q(current_risk_score__lte=100),
                name="kyc_user_risk_score_range",
            ),
        ]
        # The default list (active users, newest first, id as tie-breaker) reads straight off this index,
        # so page 1 of a million users does not sort them.
        indexes = [models.Index(fields=["is_archived", "-created_at", "-id"], name="kyc_user_active_created")]

    def __str__(self):
        return f"{self.full_name} ({self.phone_number})"

    # DRF treats any object it authenticates as a user; platform users are.
    is_authenticated = True

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    def clean(self):
        if self.is_verified and self.verification_status != VerificationStatus.VERIFIED:
            raise ValidationError({"is_verified": "Only a VERIFIED user is marked verified."})
        if self.email:
            self.email = self.email.strip().lower()


class Transaction(models.Model):
    """One ledger row of a user's wallet.

    ``amount`` is always positive; ``type`` says whether it credits or debits
    the wallet. ``balance_after`` is the wallet balance right after a completed
    row was applied, so any balance can be explained row by row.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="transactions")
    type = models.CharField(max_length=16, choices=TransactionType.choices)
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    currency = models.CharField(max_length=3, default="SZL")
    status = models.CharField(max_length=10, choices=TransactionStatus.choices, default=TransactionStatus.COMPLETED)
    channel = models.CharField(max_length=16, choices=Channel.choices, default=Channel.WALLET)
    reference = models.CharField(max_length=64, unique=True)
    reason = models.CharField(max_length=255, blank=True, default="")
    description = models.CharField(max_length=255, blank=True, default="")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Staff member who made an admin credit",
    )
    counterparty_user = models.ForeignKey(
        PlatformUser, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    counterparty_vendor = models.ForeignKey(
        "vendors.Vendor", null=True, blank=True, on_delete=models.SET_NULL, related_name="transactions"
    )
    country = models.CharField(max_length=2, default="SZ", help_text="ISO 3166-1 alpha-2 where it happened")
    region = models.CharField(max_length=64, blank=True, default="")
    balance_after = models.DecimalField(**MONEY, null=True, blank=True)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="kyc_tx_user_created"),
            models.Index(fields=["type", "created_at"], name="kyc_tx_type_created"),
        ]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="kyc_tx_amount_positive")]

    def __str__(self):
        return f"{self.reference} {self.type} {self.amount} SZL"

    @property
    def is_credit(self) -> bool:
        return self.type in CREDIT_TYPES

    @property
    def signed_amount(self) -> Decimal:
        return self.amount if self.is_credit else -self.amount


def document_path(document: "KycDocument", filename: str) -> str:
    """``kyc/<user id>/<random>.<ext>``: never another user's name, and no client-chosen file name in the key."""
    extension = Path(filename).suffix.lower()[:8]
    return f"kyc/{document.user_id}/{uuid.uuid4().hex}{extension}"


class KycDocument(models.Model):
    """An identity image of a user (ID front, ID back, selfie), kept through Django's storage API."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="documents")
    type = models.CharField(max_length=8, choices=DocumentType.choices)
    file = models.FileField(upload_to=document_path, max_length=255)
    content_type = models.CharField(max_length=64, blank=True, default="")
    size = models.PositiveIntegerField(default=0)
    uploaded_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-uploaded_at"]
        verbose_name = "KYC document"

    def __str__(self):
        return f"{self.get_type_display()} of {self.user_id}"


class VerificationRecord(models.Model):
    """One verification attempt of a user (identity check, phone check) and its outcome."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="verifications")
    type = models.CharField(max_length=10, choices=VerificationType.choices, default=VerificationType.IDENTITY)
    status = models.CharField(max_length=10, choices=VerificationStatus.choices, default=VerificationStatus.PENDING)
    notes = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.type} {self.status} for {self.user_id}"


class CreditRequest(models.Model):
    """The first answer to an admin credit sent with an ``Idempotency-Key`` header.

    A retry with the same key (per staff member) gets ``response`` back instead
    of a second credit; ``fingerprint`` (user, amount, reason) tells a retry
    from a different request that reuses the key.
    """

    id = models.BigAutoField(primary_key=True)
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="+")
    transaction = models.ForeignKey(Transaction, null=True, on_delete=models.SET_NULL, related_name="+")
    response = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["staff", "key"], name="kyc_credit_request_staff_key_unique")]

    def __str__(self):
        return f"credit request {self.key} by {self.staff_id}"
