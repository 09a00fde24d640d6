"""What vendor services refuse, each with the interface's message where it gives one."""

from backoffice.errors import NotFound


class VendorNotFound(NotFound):
    default_message = "Vendor not found"


class DocumentNotFound(NotFound):
    """A key that is not one of this vendor's documents (another vendor's, or none at all)."""

    default_message = "Document not found"
