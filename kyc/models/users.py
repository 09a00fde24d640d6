"""The platform user: the wallet holder who is the subject of KYC, AML and SARs."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from kyc.choices import RiskRating, Sex, VerificationStatus
from kyc.identity import id_number_key

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
    # id_number as it is compared (kyc.identity.id_number_key), kept by save(): duplicate identities are found
    # by it whatever spaces or dashes either number was written with
    id_number_key = models.CharField(
        max_length=32, blank=True, default="", db_default="", editable=False, db_index=True
    )
    date_of_birth = models.DateField(null=True, blank=True)
    sex = models.CharField(max_length=6, choices=Sex.choices, blank=True, default="")
    nationality = models.CharField(max_length=64, blank=True, default="")
    occupation = models.CharField(max_length=100, blank=True, default="")
    region = models.CharField(max_length=64, blank=True, default="", help_text="Region of residence")
    country = models.CharField(max_length=2, default="SZ", help_text="ISO 3166-1 alpha-2")
    # Customer due diligence facts a regulator's report asks for (goAML's t_person_my_client): the
    # residential address, and the identity documents' dates. Empty when not collected.
    address_line = models.CharField(max_length=255, blank=True, default="", help_text="Street and house")
    city = models.CharField(max_length=64, blank=True, default="", help_text="Town or city of residence")
    id_issue_date = models.DateField(null=True, blank=True, help_text="Issue date of the national ID card")
    id_expiry_date = models.DateField(null=True, blank=True, help_text="Expiry date of the ID card, if it has one")
    passport_number = models.CharField(max_length=32, blank=True, default="")
    passport_country = models.CharField(max_length=2, blank=True, default="", help_text="ISO 3166-1 alpha-2")
    passport_issue_date = models.DateField(null=True, blank=True)
    passport_expiry_date = models.DateField(null=True, blank=True)
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
    # Frozen under targeted financial sanctions (a confirmed sanctions match): every payment of theirs and every
    # transfer to them is blocked, and no credit lands. Why is compliance's to know (support sees only the flag);
    # ``frozen_by`` is who froze, so the unfreezing is always a second person's.
    is_frozen = models.BooleanField(default=False, db_default=False)
    frozen_at = models.DateTimeField(null=True, blank=True)
    frozen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
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
            models.CheckConstraint(
                condition=Q(id_expiry_date__isnull=True)
                | Q(id_issue_date__isnull=True)
                | Q(id_expiry_date__gt=F("id_issue_date")),
                name="kyc_user_id_expires_after_issue",
            ),
            models.CheckConstraint(
                condition=Q(passport_expiry_date__isnull=True)
                | Q(passport_issue_date__isnull=True)
                | Q(passport_expiry_date__gt=F("passport_issue_date")),
                name="kyc_user_passport_expires_after_issue",
            ),
        ]
        # The default list (active users, newest first, id as tie-breaker) reads straight off this index,
        # so page 1 of a million users does not sort them.
        indexes = [models.Index(fields=["is_archived", "-created_at", "-id"], name="kyc_user_active_created")]

    def __str__(self):
        return f"{self.full_name} ({self.phone_number})"

    def save(self, *args, **kwargs):
        self.id_number_key = id_number_key(self.id_number)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "id_number" in update_fields:
            kwargs["update_fields"] = {*update_fields, "id_number_key"}
        super().save(*args, **kwargs)

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
        errors = {}
        if self.id_issue_date and self.id_expiry_date and self.id_expiry_date <= self.id_issue_date:
            errors["id_expiry_date"] = "The ID card cannot expire before it was issued."
        if (
            self.passport_issue_date
            and self.passport_expiry_date
            and self.passport_expiry_date <= self.passport_issue_date
        ):
            errors["passport_expiry_date"] = "The passport cannot expire before it was issued."
        if bool(self.passport_number) != bool(self.passport_country):
            errors["passport_country"] = "A passport is recorded with its number and its issuing country."
        if errors:
            raise ValidationError(errors)
