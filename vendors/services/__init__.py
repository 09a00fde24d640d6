"""Every write on vendors: accounts (sign-up, sign-in) and vendor KYC (documents, review, the status)."""

from vendors.services.accounts import KIND, PRINCIPAL, vendor_login, vendor_register
from vendors.services.kyc_documents import (
    UNCHANGED,
    DocumentUpload,
    vendor_document_delete,
    vendor_document_review,
    vendor_document_upload,
)
from vendors.services.kyc_override import vendor_kyc_verify_override
from vendors.services.kyc_status import kyc_status_expire, kyc_status_follow, vendor_kyc_decide

__all__ = [
    "KIND",
    "PRINCIPAL",
    "UNCHANGED",
    "DocumentUpload",
    "kyc_status_expire",
    "kyc_status_follow",
    "vendor_document_delete",
    "vendor_document_review",
    "vendor_document_upload",
    "vendor_kyc_decide",
    "vendor_kyc_verify_override",
    "vendor_login",
    "vendor_register",
]
