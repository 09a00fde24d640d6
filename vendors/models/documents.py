"""A vendor's KYC documents: one current file per document slot, with the reviewer's word on it, and the files
they superseded that a decision relied on, kept as evidence for the retention period."""

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


class VendorDocumentQuerySet(models.QuerySet):
    def current(self):
        """The documents in the vendor's slots now: one per slot at most (what every KYC answer is about)."""
        return self.filter(superseded_at__isnull=True)

    def superseded(self):
        """Documents replaced by a newer file, kept because a decision relied on them."""
        return self.filter(superseded_at__isnull=False)


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

    Evidence kept: once a decision relied on a document (``relied_on``: a reviewer's word on it, or the vendor's
    KYC decision taken while it was in its slot), it is never deleted while it is current, and a replacement
    supersedes it (``superseded_at``, ``superseded_by``) instead of deleting it: its row, review and file stay
    for ``VENDOR_KYC_RETENTION_DAYS`` after it was superseded (``retained_until``). Only the current documents
    (``superseded_at`` empty, at most one per slot) count for anything else.
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
    superseded_at = models.DateTimeField(null=True, blank=True, db_index=True)
    superseded_by = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,  # a purge of the newer file must not take the older evidence with it
        related_name="+",
        help_text="The document that replaced this one in its slot.",
    )

    objects = VendorDocumentQuerySet.as_manager()

    class Meta:
        ordering = ["vendor", "document_key"]
        verbose_name = "vendor KYC document"
        constraints = [
            models.UniqueConstraint(
                fields=["vendor", "document_key"],
                condition=Q(superseded_at__isnull=True),
                name="vendor_document_one_current_per_slot",
            ),
            models.CheckConstraint(
                condition=Q(superseded_at__isnull=False) | Q(superseded_by__isnull=True),
                name="vendor_document_superseded_by_only_when_superseded",
            ),
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
        if self.superseded_by_id and not self.superseded_at:
            errors["superseded_by"] = "Only a superseded document names the one that replaced it."
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

    def relied_on(self, vendor: Vendor) -> str | None:
        """Which decision relied on this document, in words, or None: a reviewer's word on it, or ``vendor``'s
        KYC decision taken while it was in its slot (the vendor's last decision came after its upload).

        Read from the rows themselves, so documents reviewed or decided on before this rule existed are kept too.
        """
        if self.reviewed_at is not None:
            return f"reviewed on {self.reviewed_at:%Y-%m-%d}"
        decided = vendor.kyc_decided_at
        in_slot_then = self.superseded_at is None or (decided is not None and decided < self.superseded_at)
        if decided is not None and self.uploaded_at <= decided and in_slot_then:
            return f"in the vendor's KYC decision of {decided:%Y-%m-%d}"
        return None

    def retained_until(self) -> dt.date | None:
        """The last day a superseded document is kept as evidence; None while it is current (kept as long)."""
        if self.superseded_at is None:
            return None
        return self.superseded_at.date() + dt.timedelta(days=settings.VENDOR_KYC_RETENTION_DAYS)


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
    documents = [d for d in documents if d.superseded_at is None]  # superseded evidence counts for nothing
    counting = {d.document_key for d in documents if d.counts(on)}
    return Completeness(
        completed=tuple(k for k in REQUIRED_DOCUMENT_KEYS if k in counting),
        missing=tuple(k for k in REQUIRED_DOCUMENT_KEYS if k not in counting),
        any_document=bool(documents),
    )


def approval_gaps(documents: Iterable[VendorDocument], on: dt.date) -> dict[str, str]:
    """What stands between the vendor's current ``documents`` and a verification: {required key: why}, in order.

    Every required slot needs its own approved, unexpired file. One file in several required slots (the same
    uploaded bytes) is one paper, however often it was approved: the first slot holding it may count, every
    later one is "the same file as" that slot. Empty when nothing is missing.
    """
    by_key = {d.document_key: d for d in documents if d.superseded_at is None}
    gaps: dict[str, str] = {}
    first_slot_of: dict[str, str] = {}
    for key in REQUIRED_DOCUMENT_KEYS:
        document = by_key.get(key)
        if document is None:
            gaps[key] = "Missing"
            continue
        earlier = first_slot_of.setdefault(document.received_sha256, key)
        state = document.state(on)
        if earlier != key:
            gaps[key] = f"The same file as {DocumentKey(earlier).label}"
        elif state == DocumentState.REREQUESTED:
            gaps[key] = "Asked for again"
        elif state == DocumentState.EXPIRED:
            gaps[key] = f"Expired on {document.expiry_date:%Y-%m-%d}"
        elif state != DocumentState.APPROVED:
            gaps[key] = "Not reviewed"
    return gaps
