"""Reads of a vendor's KYC documents: in the interface's order, one by its key, the same bytes elsewhere."""

import uuid
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from vendors.choices import DocumentKey
from vendors.errors import DocumentNotFound
from vendors.models import Vendor, VendorDocument

KEY_ORDER = {key: n for n, key in enumerate(DocumentKey.values)}
# Who may read the superseded documents kept as evidence: the compliance roles (compliance officer, MLRO, admin),
# who hold the KYC write capability; support reads the current documents only.
EVIDENCE_CAPABILITY = "vendors.kyc.write"


def vendor_documents(*, vendor: Vendor) -> list[VendorDocument]:
    """The vendor's current documents in the interface's order of document keys, with their people, in one query."""
    documents = VendorDocument.objects.current().filter(vendor=vendor).select_related("uploaded_by", "reviewed_by")
    return sorted(documents, key=lambda d: KEY_ORDER[d.document_key])


def vendor_superseded_documents(*, vendor: Vendor) -> list[VendorDocument]:
    """The vendor's superseded documents kept as evidence, newest replacement first, each with its successor."""
    return list(
        VendorDocument.objects.superseded()
        .filter(vendor=vendor)
        .select_related("uploaded_by", "reviewed_by", "superseded_by")
        .order_by("-superseded_at", "document_key")
    )


def superseded_document_get(*, vendor: Vendor, document_id) -> VendorDocument | None:
    """One of ``vendor``'s superseded documents by its id, or None (another vendor's, a current one, none)."""
    try:
        pk = uuid.UUID(str(document_id))
    except ValueError:
        return None
    return VendorDocument.objects.superseded().filter(vendor=vendor, pk=pk).first()


def vendor_document_by_key(
    *, vendor: Vendor, key: str, slot_names: bool = False, superseded: bool = False
) -> VendorDocument:
    """The vendor's current document stored under ``key``, its full storage key (or, with ``slot_names``, a
    document key); with ``superseded``, a superseded document's full storage key finds it too (the delete).

    Another vendor's key, or a key nothing is stored under, is 404: the answer never tells which.
    """
    key = (key or "").strip()
    lookup = Q(key=key)
    if slot_names and key in DocumentKey.values:
        lookup = Q(key=key) | Q(document_key=key, superseded_at__isnull=True)
    documents = VendorDocument.objects.filter(vendor=vendor)
    if not superseded:
        documents = documents.current()
    document = documents.filter(lookup).first() if key else None
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
    """For each document, the other current documents anywhere whose uploaded bytes are the same (one query)."""
    hashes = {d.received_sha256 for d in documents if d.received_sha256}
    if not hashes:
        return {}
    others = (
        VendorDocument.objects.current()
        .filter(received_sha256__in=hashes)
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
