"""Vendors: merchants that accept payments on the platform, and the state of their KYC (KYB)."""

import uuid

from django.conf import settings
from django.db import models
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from backoffice.fsm import transition_table
from backoffice.models import StateChange
from vendors.choices import VendorKycStatus

S = VendorKycStatus
DECIDED_STATES = frozenset({S.VERIFIED, S.REJECTED})


class Vendor(ConcurrentTransitionMixin, models.Model):
    """A merchant that accepts payments on the platform and goes through vendor KYC.

    ``kyc_status`` is a protected state machine (the interface's verificationStatus). Three of its moves
    follow the documents (``vendors.services.kyc_status.kyc_status_follow`` picks one after every upload,
    delete, review or expiry); two are the staff decision, only from UNDER_REVIEW
    (``vendors.services.kyc_status.vendor_kyc_decide``). Every move leaves a ``VendorKycChange`` row.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    business_name = models.CharField(max_length=200)
    contact_name = models.CharField(max_length=200, blank=True, default="")
    email = models.EmailField(unique=True)
    phone_number = models.CharField(max_length=20, unique=True)
    password = models.CharField(max_length=128)
    kyc_status = FSMField(
        "KYC status", max_length=24, choices=VendorKycStatus.choices, default=S.PENDING, protected=True, db_index=True
    )
    kyc_decision_reason = models.TextField("decision reason", blank=True, default="")
    kyc_decided_at = models.DateTimeField("decided at", null=True, blank=True)
    kyc_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="decided by",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    kyc_status_changed_at = models.DateTimeField("status changed at", null=True, blank=True)
    business_sector = models.CharField(max_length=64, blank=True, default="")
    is_phone_verified = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    last_login = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    # DRF treats any object it authenticates as a user; vendors are.
    is_authenticated = True

    def __str__(self):
        return self.business_name

    def clean(self):
        self.email = (self.email or "").strip().lower()

    def clean_fields(self, exclude=None):
        # The state field changes only through its transitions: clean_fields would assign it, which django-fsm
        # refuses on a protected field (and there is nothing about it to validate that a transition did not).
        super().clean_fields(exclude={*(exclude or ()), "kyc_status"})

    # ------------------------------------------------------------ KYC workflow: following the documents

    @transition(field=kyc_status, source=[S.DOCUMENTS_SUBMITTED, S.UNDER_REVIEW, *DECIDED_STATES], target=S.PENDING)
    def await_documents(self) -> None:
        """Every document was deleted: nothing is submitted any more."""

    @transition(field=kyc_status, source=[S.PENDING, S.UNDER_REVIEW, *DECIDED_STATES], target=S.DOCUMENTS_SUBMITTED)
    def receive_documents(self) -> None:
        """Some documents are in, and a required one is missing, asked for again or expired."""

    @transition(field=kyc_status, source=[S.PENDING, S.DOCUMENTS_SUBMITTED, *DECIDED_STATES], target=S.UNDER_REVIEW)
    def start_review(self) -> None:
        """All six required documents are in (again): staff review them and decide."""

    # ------------------------------------------------------------ KYC workflow: the staff decision

    @transition(field=kyc_status, source=S.UNDER_REVIEW, target=S.VERIFIED)
    def verify(self) -> None:
        """Compliance staff accept the vendor's KYC."""

    @transition(field=kyc_status, source=S.UNDER_REVIEW, target=S.REJECTED)
    def reject(self) -> None:
        """Compliance staff refuse the vendor's KYC."""


# (from, to) -> the Vendor method that makes the move, read from the declarations above.
KYC_TRANSITIONS: dict[tuple[str, str], str] = transition_table(Vendor, "kyc_status")


class VendorKycChange(StateChange):
    """One move of a vendor's KYC status: from, to, who (empty for the system: an expiry), when and why."""

    vendor = models.ForeignKey(Vendor, on_delete=models.CASCADE, related_name="kyc_changes")
    from_status = models.CharField(max_length=32, choices=VendorKycStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=VendorKycStatus.choices)

    class Meta(StateChange.Meta):
        verbose_name = "KYC status change"

    def __str__(self):
        return f"{self.vendor_id}: {self.from_status} -> {self.to_status}"
