"""Reads of a vendor's KYC documents: in the interface's order, one by its key, the same bytes elsewhere."""

import uuid
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from vendors.choices import DocumentKey
from vendors.errors import DocumentNotFound
from vendors.models import Vendor, VendorDocument

KEY_ORDER = {key: n for n, key in enumerate(DocumentKey.values)}


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
