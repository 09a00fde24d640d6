"""Comments and attachments on alerts and SARs (append-only)."""

from compliance.casework.models.casework import CaseAttachment, CaseComment

__all__ = ["CaseAttachment", "CaseComment"]
