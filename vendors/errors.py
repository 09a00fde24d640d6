"""What vendor services refuse, each with the interface's message where it gives one."""

from backoffice.errors import Conflict, NotFound


class VendorNotFound(NotFound):
    default_message = "Vendor not found"


class DocumentNotFound(NotFound):
    """A key that is not one of this vendor's documents (another vendor's, or none at all)."""

    default_message = "Document not found"


class DocumentRetained(Conflict):
    """A document a decision relied on, deleted before its retention period ended (the contract's retention code,
    as for a user under a SAR)."""

    code = "RETENTION_HOLD"
    default_message = "This document is kept as evidence of a KYC decision and cannot be deleted"


class DocumentsNotApproved(Conflict):
    """A verification asked for while a required document is not approved on its own file: 409, ``details``
    name each such document key with why (missing, not reviewed, asked again, expired, the same file as another).
    """

    code = "DOCUMENTS_NOT_APPROVED"
    default_message = "Every required document must be approved before the vendor is verified"
