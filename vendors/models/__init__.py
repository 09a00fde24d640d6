from vendors.models.documents import (
    COUNTING_STATES,
    Completeness,
    DocumentState,
    VendorDocument,
    VendorDocumentQuerySet,
    approval_gaps,
    completeness,
    storage_key,
    today,
)
from vendors.models.vendors import KYC_TRANSITIONS, Vendor, VendorKycChange

__all__ = [
    "COUNTING_STATES",
    "Completeness",
    "KYC_TRANSITIONS",
    "DocumentState",
    "Vendor",
    "VendorDocument",
    "VendorDocumentQuerySet",
    "VendorKycChange",
    "approval_gaps",
    "completeness",
    "storage_key",
    "today",
]
