"""A vendor's KYC progress: the eight slots, what is missing, the percentage the interface shows."""

import datetime as dt
from dataclasses import dataclass

from vendors.choices import REQUIRED_DOCUMENT_KEYS, DocumentKey
from vendors.models import DocumentState, Vendor, VendorDocument, completeness, today
from vendors.selectors.documents import Duplicate, document_duplicates, vendor_documents

TOTAL_REQUIRED = len(REQUIRED_DOCUMENT_KEYS)


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
