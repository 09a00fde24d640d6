"""The fixed lists of vendor KYC: statuses, the eight document slots, review decisions and reasons."""

from django.db import models


class VendorKycStatus(models.TextChoices):
    """The interface's vendor verificationStatus; the moves are declared on ``Vendor`` (models/vendors.py)."""

    PENDING = "PENDING", "Pending"
    DOCUMENTS_SUBMITTED = "DOCUMENTS_SUBMITTED", "Documents submitted"
    UNDER_REVIEW = "UNDER_REVIEW", "Under review"
    VERIFIED = "VERIFIED", "Verified"
    REJECTED = "REJECTED", "Rejected"


class DocumentKey(models.TextChoices):
    """The interface's document keys, in its order; the value is what the API and the storage key carry."""

    COMPANY_REGISTRATION = "companyRegistration", "Company registration"
    TAX_CLEARANCE = "taxClearance", "Tax clearance"
    BUSINESS_LICENSE = "businessLicense", "Business licence"
    BANK_STATEMENT = "bankStatement", "Bank statement"
    DIRECTOR_ID = "directorId", "Director's ID"
    PROOF_OF_ADDRESS = "proofOfAddress", "Proof of address"
    TRADING_LICENSE = "tradingLicense", "Trading licence"
    OTHER = "other", "Other"


# Six of the eight are required (interface: "Six are required"); the order is the interface's.
REQUIRED_DOCUMENT_KEYS: tuple[str, ...] = (
    DocumentKey.COMPANY_REGISTRATION,
    DocumentKey.TAX_CLEARANCE,
    DocumentKey.BUSINESS_LICENSE,
    DocumentKey.BANK_STATEMENT,
    DocumentKey.DIRECTOR_ID,
    DocumentKey.PROOF_OF_ADDRESS,
)
OPTIONAL_DOCUMENT_KEYS: tuple[str, ...] = (DocumentKey.TRADING_LICENSE, DocumentKey.OTHER)


class ReviewDecision(models.TextChoices):
    """A reviewer's word on one document."""

    APPROVED = "APPROVED", "Approved"
    REREQUESTED = "REREQUESTED", "Asked again"


class ReviewReason(models.TextChoices):
    """Why a document is asked for again (contract: required with REREQUESTED)."""

    UNREADABLE = "UNREADABLE", "Unreadable"
    EXPIRED = "EXPIRED", "Expired"
    WRONG_DOCUMENT = "WRONG_DOCUMENT", "Wrong document"
    NAME_MISMATCH = "NAME_MISMATCH", "Name does not match the vendor"
    INCOMPLETE = "INCOMPLETE", "Incomplete"
    OTHER = "OTHER", "Other"


class KycDecision(models.TextChoices):
    """The staff decision on a vendor under review (``PUT /admin/vendors/:id/kyc/status``)."""

    VERIFIED = VendorKycStatus.VERIFIED.value, "Verified"
    REJECTED = VendorKycStatus.REJECTED.value, "Rejected"


# The dual-control kind of a verification despite unapproved documents (vendors.services.kyc_override), and the
# target type its requests name: stored values, never renamed
VERIFY_OVERRIDE_KIND = "vendors.verify_override"
VENDOR_TARGET = "vendor"
