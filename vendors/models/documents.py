"""A vendor's KYC documents: one stored file per document slot, with the reviewer's word on it."""

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from vendors.choices import REQUIRED_DOCUMENT_KEYS, DocumentKey, ReviewDecision, ReviewReason
from vendors.models.vendors import Vendor


class DocumentState(models.TextChoices):
    """Where one slot stands; only APPROVED and UPLOADED count as in (interface: "status per document type")."""

    MISSING = "MISSING", "Missing"
    UPLOADED = "UPLOADED", "Uploaded, not reviewed"
    APPROVED = "APPROVED", "Approved"
    REREQUESTED = "REREQUESTED", "Asked again"
    EXPIRED = "EXPIRED", "Expired"


COUNTING_STATES = frozenset({DocumentState.UPLOADED, DocumentState.APPROVED})


def storage_key(vendor_id, document_key: str, safe_filename: str) -> str:
    """The storage key of a vendor's document: ``vendors/{vendorId}/kyc/{documentKey}_{safeFilename}``."""
    return f"vendors/{vendor_id}/kyc/{document_key}_{safe_filename}"


class VendorDocument(models.Model):
    """The file in one of a vendor's eight document slots, and the reviewer's word on it.

    ``key`` is the storage key (``storage_key``); the bytes live in the default storage, checked by
    ``backoffice.uploads`` before they were written. A re-upload replaces the row's file and clears its
    review, issue and expiry dates (they described the paper it replaces). ``received_sha256`` is the hash of
    the uploaded bytes, so the same file uploaded for another vendor is found whatever the storage kept.
    A document whose ``expiry_date`` has passed, or that was asked for again, counts as missing.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    vendor = models.ForeignKey(Vendor, on_delete=models.CASCADE, related_name="kyc_documents")
    document_key = models.CharField(max_length=32, choices=DocumentKey.choices)
    key = models.CharField(max_length=255, unique=True)
    original_filename = models.CharField(max_length=255, blank=True, default="")
    content_type = models.CharField(max_length=64)
    size = models.PositiveBigIntegerField(help_text="Bytes of the stored file.")
    sha256 = models.CharField(max_length=64, help_text="Of the stored bytes.")
    received_sha256 = models.CharField(max_length=64, db_index=True, help_text="Of the uploaded bytes.")
    sanitised = models.BooleanField(default=False, help_text="The stored image was rebuilt without metadata.")
    pages = models.PositiveIntegerField(null=True, blank=True)
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField()
    review_decision = models.CharField(max_length=16, choices=ReviewDecision.choices, blank=True, default="")
    review_reason_code = models.CharField(max_length=16, choices=ReviewReason.choices, blank=True, default="")
    review_note = models.TextField(blank=True, default="")
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    issue_date = models.DateField(null=True, blank=True)
    expiry_date = models.DateField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["vendor", "document_key"]
        verbose_name = "vendor KYC document"
        constraints = [
            models.UniqueConstraint(fields=["vendor", "document_key"], name="vendor_document_one_per_slot"),
            models.CheckConstraint(
                condition=Q(review_decision="REREQUESTED", review_reason_code__gt="")
                | (~Q(review_decision="REREQUESTED") & Q(review_reason_code="")),
                name="vendor_document_reason_iff_rerequested",
            ),
            models.CheckConstraint(
                condition=Q(issue_date__isnull=True)
                | Q(expiry_date__isnull=True)
                | Q(expiry_date__gte=F("issue_date")),
                name="vendor_document_expiry_after_issue",
            ),
        ]

    def __str__(self):
        return self.key

    def clean(self):
        errors = {}
        if self.review_decision == ReviewDecision.REREQUESTED and not self.review_reason_code:
            errors["review_reason_code"] = "A document asked for again needs a reason."
        if self.review_decision != ReviewDecision.REREQUESTED and self.review_reason_code:
            errors["review_reason_code"] = "Only a document asked for again has a reason code."
        if self.issue_date and self.expiry_date and self.expiry_date < self.issue_date:
            errors["expiry_date"] = "The expiry date cannot be before the issue date."
        if errors:
            raise ValidationError(errors)

    @property
    def required(self) -> bool:
        return self.document_key in REQUIRED_DOCUMENT_KEYS

    def is_expired(self, on: dt.date) -> bool:
        return self.expiry_date is not None and self.expiry_date < on

    def state(self, on: dt.date) -> DocumentState:
        """Asked again wins over expired (the reviewer's reason says more), expired over approved."""
        if self.review_decision == ReviewDecision.REREQUESTED:
            return DocumentState.REREQUESTED
        if self.is_expired(on):
            return DocumentState.EXPIRED
        if self.review_decision == ReviewDecision.APPROVED:
            return DocumentState.APPROVED
        return DocumentState.UPLOADED

    def counts(self, on: dt.date) -> bool:
        """True when the document counts towards completeness: in, not asked again, not expired."""
        return self.state(on) in COUNTING_STATES


def today() -> dt.date:
    """The date documents expire against: today in UTC (the service's time zone)."""
    return timezone.now().date()


@dataclass(frozen=True)
class Completeness:
    """The required document slots that count (in order), those that do not, and whether any file is in."""

    completed: tuple[str, ...]
    missing: tuple[str, ...]
    any_document: bool


def completeness(documents: Iterable[VendorDocument], on: dt.date) -> Completeness:
    """Which required slots count on ``on`` and which are missing (in the interface's order)."""
    documents = list(documents)
    counting = {d.document_key for d in documents if d.counts(on)}
    return Completeness(
        completed=tuple(k for k in REQUIRED_DOCUMENT_KEYS if k in counting),
        missing=tuple(k for k in REQUIRED_DOCUMENT_KEYS if k not in counting),
        any_document=bool(documents),
    )
