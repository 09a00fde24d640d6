"""The wallet ledger and the record of staff credit requests."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q

from kyc.choices import CREDIT_TYPES, Channel, TransactionStatus, TransactionType
from kyc.models.users import MONEY, PlatformUser


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


class CreditRequest(models.Model):
    """A staff member's request to credit a wallet, and what it did.

    Every admin credit leaves one: who asked, for whom, how much and why, the
    balances around it and the ledger row. With an ``Idempotency-Key`` header
    (``idempotency_key``, unique per staff member) a retry returns this record
    instead of crediting again; ``fingerprint`` (user, amount, reason) tells a
    retry from a different request that reuses the key.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    fingerprint = models.CharField(max_length=64)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="credit_requests")
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    reason = models.CharField(max_length=255)
    previous_balance = models.DecimalField(**MONEY, null=True, blank=True)
    new_balance = models.DecimalField(**MONEY, null=True, blank=True)
    transaction = models.ForeignKey(Transaction, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reference = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["requested_by", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="kyc_credit_request_key_unique",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="kyc_credit_request_amount_positive"),
        ]

    def __str__(self):
        return f"credit of {self.amount} SZL to {self.user_id}"
