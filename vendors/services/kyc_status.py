"""The vendor's KYC status: where the documents put it, what expiry does to it, and the staff decision.

The moves themselves are declared on ``Vendor`` (django-fsm-2 ``@transition`` methods); this module chooses
which one to take, under the vendor's row lock, and makes it with ``backoffice.services.fsm_move`` (the history
row and the audit entry with it).

How the status follows the documents (``status_for``): no document at all is PENDING; all six required
documents in (uploaded, not asked for again, not expired) is UNDER_REVIEW; anything between is
DOCUMENTS_SUBMITTED. A decided vendor (VERIFIED or REJECTED) keeps its decision while the documents it was
taken on stay in: asking for a required document again, its expiry or its deletion sends the vendor back to
DOCUMENTS_SUBMITTED, and a new file in a required slot sends it back to UNDER_REVIEW (a decision covers the
papers it was taken on, not their replacements). An optional document changes nothing once decided.
"""

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backoffice.choices import ApprovalStatus
from backoffice.errors import Forbidden, FourEyesRequired, ValidationFailed
from backoffice.models import ApprovalRequest, Staff
from backoffice.services import Actor, fsm_move, lock_row
from backoffice.services.approvals import approvals_lock_target, approvals_overtaken
from vendors import events
from vendors.choices import (
    REQUIRED_DOCUMENT_KEYS,
    VENDOR_TARGET,
    VERIFY_OVERRIDE_KIND,
    DocumentKey,
    KycDecision,
    ReviewDecision,
    VendorKycStatus,
)
from vendors.errors import DocumentsNotApproved
from vendors.models import Completeness, Vendor, VendorDocument, VendorKycChange, approval_gaps, completeness
from vendors.models.documents import today
from vendors.models.vendors import DECIDED_STATES

S = VendorKycStatus
# Statuses that claim every required document is in; an expiry proves them wrong. A rejection claims nothing
# about the documents, so an expiry leaves it alone.
COMPLETE_STATES = frozenset({S.UNDER_REVIEW, S.VERIFIED})


def status_for(state: Completeness) -> str:
    """The status the documents alone put a vendor in."""
    if not state.any_document:
        return S.PENDING
    if not state.missing:
        return S.UNDER_REVIEW
    return S.DOCUMENTS_SUBMITTED


def lock_vendor(vendor: Vendor) -> Vendor:
    """The vendor's row, locked until the end of the transaction, freshly read."""
    return lock_row(vendor)


def _move(vendor: Vendor, *, target: str, actor: Actor, note: str, check=None) -> None:
    """Move a vendor the caller has locked; 409 "Cannot move vendor KYC from X to Y" outside the table."""
    vendor.kyc_status_changed_at = timezone.now()
    fsm_move(
        vendor,
        to=target,
        actor=actor,
        note=note,
        field="kyc_status",
        label="vendor KYC",
        lock=False,
        history=VendorKycChange,
        event=events.kyc_status_moved,
        check=check,
    )


def document_handler_ids(documents) -> set:
    """Who uploaded a vendor's current ``documents``, or approved them: not independent of its KYC decision."""
    handlers = set()
    for document in documents:
        handlers.add(document.uploaded_by_id)
        if document.review_decision == ReviewDecision.APPROVED:
            handlers.add(document.reviewed_by_id)
    return handlers - {None}


def four_eyes_breach(vendor: Vendor, actor, documents=None) -> str | None:
    """Why ``actor`` may not decide on ``vendor``'s KYC (four eyes), or None (``documents``: its own, if loaded)."""
    documents = vendor.kyc_documents.current() if documents is None else documents
    if getattr(actor, "pk", None) in document_handler_ids(documents):
        return "The vendor's KYC decision needs someone who neither uploaded nor approved its documents (four eyes)"
    return None


def verification_gaps(vendor: Vendor, documents=None, on: dt.date | None = None) -> dict[str, str]:
    """What a verification of ``vendor`` still lacks: {required document key: why}, empty when every required
    document is approved on its own file (``approval_gaps``), or when the setting
    ``VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS`` is off. ``documents``: its current ones, if loaded."""
    if not settings.VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS:
        return {}  # the interface's decision: any vendor under review may be verified
    documents = vendor.kyc_documents.current() if documents is None else documents
    return approval_gaps(documents, on or today())


def documents_not_approved(gaps: dict[str, str]) -> DocumentsNotApproved:
    """The 409 refusing a verification, naming every required document that is not approved and why."""
    listed = "; ".join(f"{DocumentKey(key).label}: {why}" for key, why in gaps.items())
    return DocumentsNotApproved(
        f"Every required document must be approved before the vendor is verified. Not yet: {listed}",
        details={key: [why] for key, why in gaps.items()},
    )


def kyc_status_follow(*, vendor: Vendor, actor: Actor, note: str, reopen: bool, on: dt.date | None = None) -> bool:
    """Move a vendor locked by the caller to where its documents put it; True when it moved.

    ``reopen`` is True when the change was a new file in a required slot: it takes a decided vendor back
    under review. Call inside the transaction that changed the documents.
    """
    state = completeness(list(vendor.kyc_documents.current()), on or today())
    target = status_for(state)
    current = vendor.kyc_status
    if target == current or (current in DECIDED_STATES and target == S.UNDER_REVIEW and not reopen):
        return False
    _move(vendor, target=target, actor=actor, note=note)
    return True


def _expired_required(vendor: Vendor, on: dt.date) -> list[VendorDocument]:
    documents = vendor.kyc_documents.current()
    return [d for d in documents if d.document_key in REQUIRED_DOCUMENT_KEYS and d.is_expired(on)]


def expire_locked(vendor: Vendor, on: dt.date) -> bool:
    if vendor.kyc_status not in COMPLETE_STATES:
        return False
    expired = _expired_required(vendor, on)
    if not expired:
        return False
    note = "Expired: " + ", ".join(f"{d.document_key} ({d.expiry_date:%Y-%m-%d})" for d in expired)
    return kyc_status_follow(vendor=vendor, actor=None, note=note, reopen=False, on=on)


def kyc_status_expire(*, vendor: Vendor, on: dt.date | None = None) -> Vendor:
    """Send a vendor whose status claims completeness back to DOCUMENTS_SUBMITTED when a required document
    has expired (a system move, no actor). Idempotent; returns the vendor as it now stands.

    Run for every vendor by ``manage.py vendor_kyc_expire`` (daily), and for one vendor whenever its
    progress is read, so no answer ever shows a vendor complete on an expired paper. The look costs one
    query and takes no lock; only a vendor that must move is locked and written.
    """
    on = on or today()
    due = VendorDocument.objects.current().filter(
        vendor_id=vendor.pk,
        vendor__kyc_status__in=COMPLETE_STATES,
        document_key__in=REQUIRED_DOCUMENT_KEYS,
        expiry_date__lt=on,
    )
    if not due.exists():
        return vendor
    with transaction.atomic():
        locked = lock_vendor(vendor)
        expire_locked(locked, on)
    return locked


@transaction.atomic
def vendor_kyc_decide(
    *, vendor: Vendor, actor: Staff, status: str, reason: str = "", override: ApprovalRequest | None = None
) -> Vendor:
    """The staff decision on a vendor under review: VERIFIED or REJECTED, with the reason in the history.

    From UNDER_REVIEW only (409 ``INVALID_TRANSITION`` otherwise, whoever asks); a rejection needs a reason.
    An expired required document is taken into account first: it puts the vendor back to
    DOCUMENTS_SUBMITTED, so nobody decides on an expired paper. Four eyes: whoever uploaded or approved one of
    the vendor's documents does not decide on it (403 FOUR_EYES_REQUIRED). A verification needs every required
    document approved on its own file (409 DOCUMENTS_NOT_APPROVED, listing each one that is not and why:
    ``documents_not_approved``); a rejection does not. ``override``: the approved dual-control request
    (``vendors.verify_override``, ``vendors.services.kyc_override``) that takes the place of that one check;
    every other check stands. A decision lapses a pending override of this vendor (it could only fail now).

    Evidence: the documents in the vendor's slots at this decision are relied on from now on
    (``VendorDocument.relied_on``, read from ``kyc_decided_at``): never deleted, superseded when replaced.
    """
    if status not in KycDecision.values:
        raise ValidationFailed(
            "Invalid status", details={"status": [f"Must be one of {', '.join(KycDecision.values)}."]}
        )
    if not actor.has_capability("vendors.kyc.decide"):
        raise Forbidden("Your role does not allow deciding on a vendor's KYC")
    reason = (reason or "").strip()
    if status == KycDecision.REJECTED and not reason:
        raise ValidationFailed("A reason is required to reject", details={"reason": ["Required to reject."]})
    overridden = _override_of(override, vendor) if status == KycDecision.VERIFIED else False
    # a pending override's row first, then the vendor's: the order an approval takes them, so never a deadlock
    approvals_lock_target(kind=VERIFY_OVERRIDE_KIND, target_type=VENDOR_TARGET, target_id=vendor.pk)
    locked = lock_vendor(vendor)
    expire_locked(locked, today())
    # the table has VERIFIED and REJECTED from UNDER_REVIEW only: elsewhere fsm_move refuses with a 409 (the
    # decision fields set here then go with the undone transaction)
    locked.kyc_decision_reason = reason
    locked.kyc_decided_at = timezone.now()
    locked.kyc_decided_by = actor

    def independent(move) -> None:
        # after the table's 409: a vendor that is not under review is refused for that reason, whoever asks
        # then who: four eyes; then what: a verification on papers that are not all approved
        documents = list(move.instance.kyc_documents.current())
        breach = four_eyes_breach(move.instance, actor, documents)
        if breach:
            raise FourEyesRequired(breach)
        if status == KycDecision.VERIFIED and not overridden:
            gaps = verification_gaps(move.instance, documents)
            if gaps:
                raise documents_not_approved(gaps)

    _move(locked, target=status, actor=actor, note=reason, check=independent)
    approvals_overtaken(kind=VERIFY_OVERRIDE_KIND, target_type=VENDOR_TARGET, target_id=vendor.pk)
    return locked


def _override_of(request: ApprovalRequest | None, vendor: Vendor) -> bool:
    """Whether ``request`` is an approved override of this vendor's verification (anything else is a bug: 403)."""
    if request is None:
        return False
    if (
        request.kind != VERIFY_OVERRIDE_KIND
        or request.status != ApprovalStatus.APPROVED
        or request.target_id != str(vendor.pk)
    ):
        raise FourEyesRequired("Verifying this vendor without every document approved needs a second person")
    return True
