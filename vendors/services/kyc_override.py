"""Verifying a vendor despite the gaps: the override a second person approves (docs/vendor-kyc.md,
docs/dual-control.md).

With ``VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS`` on, a vendor is verified only on approved documents. An officer,
MLRO or admin who may decide on the vendor may instead ask to verify it anyway, with a reason: the ask becomes a
``vendors.verify_override`` request of the one dual-control mechanism, which another eligible person (not the
requester, and independent of the vendor's documents: ``four_eyes_breach``) approves with a reason. The approval
verifies the vendor once, through ``vendor_kyc_decide`` with every other check of a decision (the vendor still
under review, four eyes for the approver); rejecting it leaves the vendor as it is.

Registered from ``VendorsConfig.ready()``.
"""

from django.db import transaction

from backoffice import dual_control
from backoffice.choices import ApprovalStatus
from backoffice.errors import Forbidden, FourEyesRequired, InvalidTransition, ValidationFailed
from backoffice.models import ApprovalRequest
from backoffice.services import Actor
from backoffice.services.approvals import ApprovalOutcome, approval_open, approvals_lock_target
from vendors.choices import VENDOR_TARGET, VERIFY_OVERRIDE_KIND, DocumentKey, KycDecision, VendorKycStatus
from vendors.models import Vendor
from vendors.models.documents import today
from vendors.selectors.vendors import vendor_get
from vendors.services.kyc_status import (
    expire_locked,
    four_eyes_breach,
    lock_vendor,
    vendor_kyc_decide,
    verification_gaps,
)

DECIDE_CAPABILITY = "vendors.kyc.decide"


def _gap_lines(gaps) -> list[str]:
    """``gaps``: {key: why}, or the [key, why] pairs a request stores (a list keeps the slots' order in JSON)."""
    pairs = gaps.items() if isinstance(gaps, dict) else gaps
    return [f"{DocumentKey(key).label}: {why}" for key, why in pairs]


@transaction.atomic
def vendor_kyc_verify_override(*, vendor: Vendor, actor: Actor, reason: str) -> ApprovalOutcome:
    """Verify ``vendor`` although required documents are not approved: a pending request a second person decides
    (``outcome.request``), or, when nothing is missing after all, the plain verification (``outcome.result``, the
    vendor). 400 without a reason; 403 for a role that may not decide; 409 ``INVALID_TRANSITION`` unless under
    review; 403 ``FOUR_EYES_REQUIRED`` for someone who handled its documents; 409 when an override already waits.
    """
    if not actor.has_capability(DECIDE_CAPABILITY):
        raise Forbidden("Your role does not allow deciding on a vendor's KYC")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed(
            "A reason is required to verify without every document approved",
            details={"reason": ["Required to verify without every document approved."]},
        )
    approvals_lock_target(kind=VERIFY_OVERRIDE_KIND, target_type=VENDOR_TARGET, target_id=vendor.pk)
    locked = lock_vendor(vendor)
    expire_locked(locked, today())
    if locked.kyc_status != VendorKycStatus.UNDER_REVIEW:
        # the 409 a decision gets from the status table, whoever asks
        raise InvalidTransition(
            f"Cannot move vendor KYC from {locked.kyc_status} to {KycDecision.VERIFIED}",
            words=f"Cannot move vendor KYC from {locked.get_kyc_status_display().lower()} to verified",
        )
    documents = list(locked.kyc_documents.current())
    breach = four_eyes_breach(locked, actor, documents)
    if breach:
        raise FourEyesRequired(breach)
    gaps = verification_gaps(locked, documents)
    if not gaps:
        # nothing to override: the decision everyone else takes
        return ApprovalOutcome(
            result=vendor_kyc_decide(vendor=locked, actor=actor, status=KycDecision.VERIFIED, reason=reason)
        )
    request = approval_open(
        kind=VERIFY_OVERRIDE_KIND,
        actor=actor,
        summary=f"Verify vendor {locked.business_name} without every required document approved",
        payload={"vendor": str(locked.pk), "gaps": [[key, why] for key, why in gaps.items()]},
        reason=reason,
        target_type=VENDOR_TARGET,
        target_id=str(locked.pk),
    )
    return ApprovalOutcome(request=request)


def _apply(*, payload: dict, actor, request: ApprovalRequest | None) -> Vendor:
    """The approved override verifies the vendor, once, as the approver's decision: every check of a decision
    but the documents' approvals (still under review, 409; the approver independent of its documents, 403)."""
    if request is None:  # only ever applied from an approval: the policy always wants a second person
        raise FourEyesRequired("Verifying a vendor without every document approved needs a second person")
    if not request.decision_reason.strip():
        raise ValidationFailed(
            "A reason is required to approve this verification", details={"reason": ["A reason is required."]}
        )
    vendor = vendor_get(vendor_id=payload["vendor"])
    gaps = "; ".join(_gap_lines(payload["gaps"]))
    note = (
        f"Verified without every required document approved ({gaps}). Asked by {request.requested_by.email}: "
        f"{request.reason}. Approved by {actor.email}: {request.decision_reason}"
    )
    return vendor_kyc_decide(vendor=vendor, actor=actor, status=KycDecision.VERIFIED, reason=note, override=request)


def _describe(request: ApprovalRequest) -> list[str]:
    vendor = Vendor.objects.filter(pk=request.payload["vendor"]).first()
    if vendor is None:
        return ["The vendor no longer exists."]
    # asked only from UNDER_REVIEW: the change stays what was asked once the vendor moved (applied or not)
    lines = [
        f"Vendor {vendor.business_name}: KYC status {VendorKycStatus.UNDER_REVIEW.label.lower()} → "
        f"{VendorKycStatus.VERIFIED.label.lower()}"
    ]
    lines += [f"Not approved when asked: {line}" for line in _gap_lines(request.payload["gaps"])]
    if request.status == ApprovalStatus.PENDING and vendor.kyc_status != VendorKycStatus.UNDER_REVIEW:
        lines.append(f"The vendor's KYC status is {vendor.get_kyc_status_display().lower()} now: approving is refused")
    return lines


def _context(request: ApprovalRequest) -> list[str]:
    """Where the documents stand now (approvals may have come in meanwhile), and who may not approve."""
    vendor = Vendor.objects.filter(pk=request.payload["vendor"]).first()
    if vendor is None:
        return []
    documents = list(vendor.kyc_documents.current())
    gaps = verification_gaps(vendor, documents)
    lines = [f"Still not approved now: {line}" for line in _gap_lines(gaps)] or [
        "Every required document is approved now: the vendor could be verified without this override."
    ]
    lines.append("Whoever uploaded or approved one of the vendor's documents may not approve (four eyes).")
    return lines


def register_approval_kinds() -> None:
    dual_control.register(
        dual_control.SensitiveAction(
            kind=VERIFY_OVERRIDE_KIND,
            label="Vendor verification without every document approved",
            request_capability=DECIDE_CAPABILITY,
            approve_capability=DECIDE_CAPABILITY,
            apply=_apply,
            describe=_describe,
            context=_context,
            notes="Asked only while a required document is not approved; a decision on the vendor meanwhile lapses it.",
        )
    )
