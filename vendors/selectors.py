"""Reads on vendors and their KYC: one vendor, its documents, its progress, duplicates, the admin's list."""

import datetime as dt
import uuid
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Min, Q, QuerySet

from vendors.choices import REQUIRED_DOCUMENT_KEYS, DocumentKey, ReviewDecision
from vendors.errors import DocumentNotFound, VendorNotFound
from vendors.models import DocumentState, Vendor, VendorDocument, completeness, today

TOTAL_REQUIRED = len(REQUIRED_DOCUMENT_KEYS)
KEY_ORDER = {key: n for n, key in enumerate(DocumentKey.values)}
EXPIRY_WARNING_DAYS = 30


def vendor_get(*, vendor_id) -> Vendor:
    """The vendor with this id, or 404 "Vendor not found" (also for an id that is not a UUID)."""
    try:
        pk = vendor_id if isinstance(vendor_id, uuid.UUID) else uuid.UUID(str(vendor_id))
    except ValueError:
        raise VendorNotFound() from None
    vendor = Vendor.objects.filter(pk=pk).defer("password").first()
    if vendor is None:
        raise VendorNotFound()
    return vendor


def vendor_documents(*, vendor: Vendor) -> list[VendorDocument]:
    """The vendor's documents in the interface's order of document keys, with their people, in one query."""
    documents = VendorDocument.objects.filter(vendor=vendor).select_related("uploaded_by", "reviewed_by")
    return sorted(documents, key=lambda d: KEY_ORDER[d.document_key])


def vendor_document_by_key(*, vendor: Vendor, key: str, slot_names: bool = False) -> VendorDocument:
    """The vendor's document stored under ``key``, its full storage key (or, with ``slot_names``, a document key).

    Another vendor's key, or a key nothing is stored under, is 404: the answer never tells which.
    """
    key = (key or "").strip()
    lookup = Q(key=key)
    if slot_names and key in DocumentKey.values:
        lookup |= Q(document_key=key)
    document = VendorDocument.objects.filter(lookup, vendor=vendor).first() if key else None
    if document is None:
        raise DocumentNotFound()
    document.vendor = vendor
    return document


@dataclass(frozen=True)
class Duplicate:
    """Another document with the same uploaded bytes: in another vendor's file, or in another slot."""

    vendor_id: uuid.UUID
    business_name: str
    document_key: str


def document_duplicates(documents: list[VendorDocument]) -> dict[uuid.UUID, list[Duplicate]]:
    """For each document, the other documents anywhere whose uploaded bytes are the same (one query)."""
    hashes = {d.received_sha256 for d in documents if d.received_sha256}
    if not hashes:
        return {}
    others = (
        VendorDocument.objects.filter(received_sha256__in=hashes)
        .select_related("vendor")
        # the vendor's state field too: django-fsm reads it when a Vendor is built, deferred it costs a query each
        .only("id", "received_sha256", "document_key", "vendor__id", "vendor__business_name", "vendor__kyc_status")
        .order_by("vendor__business_name", "document_key")
    )
    by_hash: dict[str, list[VendorDocument]] = defaultdict(list)
    for other in others:
        by_hash[other.received_sha256].append(other)
    return {
        d.pk: [
            Duplicate(vendor_id=o.vendor.pk, business_name=o.vendor.business_name, document_key=o.document_key)
            for o in by_hash[d.received_sha256]
            if o.pk != d.pk
        ]
        for d in documents
    }


@dataclass(frozen=True)
class Slot:
    """One of the eight document slots of a vendor: its key, whether it is required, its file and state."""

    document_key: str
    required: bool
    document: VendorDocument | None
    state: DocumentState
    duplicates: tuple[Duplicate, ...] = ()

    @property
    def label(self) -> str:
        return DocumentKey(self.document_key).label


@dataclass(frozen=True)
class KycProgress:
    """The interface's progress answer, in domain terms."""

    vendor: Vendor
    total_required: int
    total_completed: int
    slots: tuple[Slot, ...]
    missing: tuple[str, ...]

    @property
    def percentage(self) -> int:
        return progress_percentage(self.total_completed)


def progress_percentage(completed: int) -> int:
    """Whole percent, halves rounded up (1 of 6 is 17, 4 of 6 is 67)."""
    return (completed * 200 + TOTAL_REQUIRED) // (2 * TOTAL_REQUIRED)


def vendor_kyc_progress(*, vendor: Vendor, on: dt.date | None = None) -> KycProgress:
    """Which slots are in, missing (a re-requested or expired required document counts as missing), and why."""
    on = on or today()
    documents = vendor_documents(vendor=vendor)
    by_key = {d.document_key: d for d in documents}
    duplicates = document_duplicates(documents)
    slots = tuple(
        Slot(
            document_key=key,
            required=key in REQUIRED_DOCUMENT_KEYS,
            document=by_key.get(key),
            state=by_key[key].state(on) if key in by_key else DocumentState.MISSING,
            duplicates=tuple(duplicates.get(by_key[key].pk, ())) if key in by_key else (),
        )
        for key in DocumentKey.values
    )
    state = completeness(documents, on)
    return KycProgress(
        vendor=vendor,
        total_required=TOTAL_REQUIRED,
        total_completed=len(state.completed),
        slots=slots,
        missing=state.missing,
    )


def counting_documents_q(on: dt.date, prefix: str = "kyc_documents__") -> Q:
    """Documents that count towards completeness, as a filter on ``prefix`` (the list's progress bar)."""
    return (
        Q(**{f"{prefix}document_key__in": REQUIRED_DOCUMENT_KEYS})
        & ~Q(**{f"{prefix}review_decision": ReviewDecision.REREQUESTED})
        & (Q(**{f"{prefix}expiry_date__isnull": True}) | Q(**{f"{prefix}expiry_date__gte": on}))
    )


def vendor_list(*, on: dt.date | None = None) -> QuerySet[Vendor]:
    """Vendors with their KYC progress (``kyc_completed``) and next document expiry (``kyc_next_expiry``)."""
    on = on or today()
    return (
        Vendor.objects.defer("password")
        .annotate(
            kyc_completed=Count("kyc_documents", filter=counting_documents_q(on), distinct=True),
            kyc_next_expiry=Min("kyc_documents__expiry_date"),
        )
        .order_by("-created_at", "-id")
    )


def expiring_within(queryset: QuerySet[Vendor], *, days: int, on: dt.date | None = None) -> QuerySet[Vendor]:
    """Vendors with a document whose expiry date falls within the next ``days`` days (today included)."""
    on = on or today()
    ids = VendorDocument.objects.filter(expiry_date__gte=on, expiry_date__lte=on + dt.timedelta(days=days))
    return queryset.filter(pk__in=ids.values("vendor_id"))


def with_expired_documents(queryset: QuerySet[Vendor], *, on: dt.date | None = None) -> QuerySet[Vendor]:
    on = on or today()
    return queryset.filter(pk__in=VendorDocument.objects.filter(expiry_date__lt=on).values("vendor_id"))
