"""Admin credits: money added to a wallet by staff (promotions, corrections), exactly once per request.

Maker-checker: with ``CREDIT_APPROVAL_THRESHOLD`` set, a credit that takes what
its requester credited to that wallet over the last 24 hours (the new credit
included) above it is only a request (``PENDING``) until a second finance or
admin person approves it (the money moves then, once) or rejects it, so four
credits of SZL 5,000 cannot pass a SZL 10,000 threshold one by one. At or below
the threshold, or with no threshold, the credit happens at once, as the
interface says. A pending credit is also a dual-control request (kind
``kyc.credit``, docs/dual-control.md): the one approval queue shows it with the
wallet's recent credits, and deciding it there or here keeps both in step.
"""

import hashlib
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction

from backoffice.errors import ValidationFailed
from backoffice.models import Staff
from backoffice.money import money
from backoffice.services import Move, fsm_move, history_record
from backoffice.services.approvals import approval_needed, approval_open, approval_settle, approvals_lock_target
from kyc import events
from kyc.choices import Channel, CreditStatus, TransactionType
from kyc.errors import AccountFrozen, IdempotencyKeyReused, UserArchived
from kyc.models import CreditRequest, CreditRequestEvent, PlatformUser
from kyc.selectors.credits import credited_in_window
from kyc.services.ledger import lock_user, new_reference, record_on_locked

MAX_CREDIT = Decimal("1000000.00")
CENT = Decimal("0.01")
DECISION_REASON_MAX = 255
# What a decision writes on the request (the state field is added by fsm_move).
DECISION_FIELDS = ("decided_by", "decided_at", "decision_reason")
# A decision on a request that is not pending: its status says what became of it.
ALREADY_DECIDED = "Credit request is already {source}"
# The dual-control kind of a pending credit (backoffice.dual_control; registered by kyc.services.approvals)
CREDIT_KIND = "kyc.credit"
CREDIT_TARGET = "credit_request"


@dataclass(frozen=True)
class CreditResult:
    """What a credit did: the balances around it and the ledger row that moved the money.

    ``needs_approval`` is true when the credit went to a second person
    (``request.status`` then says where it stands) and no money moved at
    the time of asking.
    """

    request: CreditRequest
    # True when the idempotency key had been used already: this is the first call's result, nothing moved now
    replayed: bool = False

    @property
    def needs_approval(self) -> bool:
        return self.request.went_through_approval

    @property
    def previous_balance(self) -> Decimal | None:
        return self.request.previous_balance

    @property
    def added_amount(self) -> Decimal:
        return self.request.amount

    @property
    def new_balance(self) -> Decimal | None:
        return self.request.new_balance

    @property
    def transaction_id(self):
        return self.request.transaction_id

    @property
    def reference(self) -> str:
        return self.request.reference


def credit_problems(*, amount: Decimal, reason: str) -> dict[str, list[str]]:
    """The domain's rules for a credit (amount in (0, 1,000,000] with cents at most; a reason)."""
    problems: dict[str, list[str]] = {}
    if amount <= 0:
        problems["amount"] = ["Must be greater than 0."]
    elif amount > MAX_CREDIT:
        problems["amount"] = ["Must be at most 1000000."]
    elif amount != amount.quantize(CENT):
        problems["amount"] = ["At most 2 decimal places."]
    if not reason.strip():
        problems["reason"] = ["A reason is required."]
    elif len(reason.strip()) > 255:
        problems["reason"] = ["At most 255 characters."]
    return problems


def needs_approval(amount: Decimal) -> bool:
    """Whether ``amount`` (a requester's credits to one wallet over the last 24 hours, this one included) is above
    ``CREDIT_APPROVAL_THRESHOLD`` (when set): then the credit waits for a second person."""
    return approval_needed(kind=CREDIT_KIND, amount=amount)


def _fingerprint(*, user_id, amount: Decimal, reason: str) -> str:
    return hashlib.sha256(f"{user_id}|{amount}|{reason}".encode()).hexdigest()


def user_credit(
    *, user: PlatformUser, actor: Staff, amount: Decimal, reason: str, idempotency_key: str | None = None
) -> CreditResult:
    """Admin credit: an ADMIN_CREDIT ledger row and the balance together, or a request awaiting approval.

    With ``idempotency_key`` a retry by the same staff member returns the first
    result (the credit, or the request as it stands now) without asking again,
    and the same key with another user, amount or reason is 422. Two racing
    requests with one key: the loser hits the unique constraint, and the retry
    below returns the winner's result.
    """
    problems = credit_problems(amount=amount, reason=reason)
    key = (idempotency_key or "").strip() or None
    if key is not None and len(key) > 255:
        problems["idempotency_key"] = ["At most 255 characters."]
    if problems:
        raise ValidationFailed("Validation error", details=problems)
    reason = reason.strip()
    fingerprint = _fingerprint(user_id=user.pk, amount=amount, reason=reason)
    for attempt in (1, 2):
        try:
            return _credit_once(user=user, actor=actor, amount=amount, reason=reason, key=key, fingerprint=fingerprint)
        except IntegrityError:
            if key is None or attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


@transaction.atomic
def _credit_once(
    *, user: PlatformUser, actor: Staff, amount: Decimal, reason: str, key: str | None, fingerprint: str
) -> CreditResult:
    locked = lock_user(user)
    if key is not None:
        previous = CreditRequest.objects.filter(requested_by=actor, idempotency_key=key).first()
        if previous is not None:
            if previous.fingerprint != fingerprint:
                raise IdempotencyKeyReused()
            return CreditResult(previous, replayed=True)
    if locked.is_archived:
        raise UserArchived()
    if locked.is_frozen:
        raise AccountFrozen()
    # judged per wallet and per requester over a rolling day, on the locked wallet: two racing credits queue here
    day_total = credited_in_window(user=locked, requester=actor) + amount
    waits = needs_approval(day_total)
    request = CreditRequest(
        requested_by=actor,
        idempotency_key=key,
        fingerprint=fingerprint,
        user=locked,
        amount=amount,
        reason=reason,
        # the state a request starts in; it moves only through the model's transitions afterwards
        status=CreditStatus.PENDING if waits else CreditStatus.CREDITED,
    )
    request.save()
    if waits:
        _started(request, actor=actor)
        events.credit_requested(actor=actor, request=request)
        approval_open(
            kind=CREDIT_KIND,
            actor=actor,
            summary=f"Credit {money(amount)} to {locked.full_name} ({locked.phone_number})",
            payload={"credit_request": str(request.pk), "user": str(locked.pk), "amount": str(amount)},
            reason=reason,
            target_type=CREDIT_TARGET,
            target_id=str(request.pk),
            amount=day_total,
        )
        return CreditResult(request)
    _move_money(request=request, locked=locked, actor=actor)
    _started(request, actor=actor)
    events.user_credited(actor=actor, request=request)
    user.balance = request.new_balance
    return CreditResult(request)


def _started(request: CreditRequest, *, actor: Staff) -> None:
    """The first history row of a request: from nothing to the state it was created in."""
    history_record(
        request, history=CreditRequestEvent, source="", target=request.status, actor=actor, note=request.reason
    )


def _move_money(*, request: CreditRequest, locked: PlatformUser, actor: Staff) -> None:
    """The ledger row and the balance for ``request``, on the already locked user row."""
    previous_balance = locked.balance
    tx = record_on_locked(
        locked,
        type=TransactionType.ADMIN_CREDIT,
        amount=request.amount,
        channel=Channel.WALLET,
        reason=request.reason,
        description="Admin credit" if actor == request.requested_by else f"Admin credit approved by {actor.email}",
        actor=request.requested_by,
        reference=new_reference("ADM"),
        # staff decide credits (maker-checker): the rules' hits raise alerts but hold no credit
        enforce=False,
    )
    request.previous_balance = previous_balance
    request.new_balance = tx.balance_after
    request.transaction = tx
    request.reference = tx.reference
    request.save(update_fields=["previous_balance", "new_balance", "transaction", "reference"])


@transaction.atomic
def credit_request_approve(*, credit_request: CreditRequest, actor: Staff, reason: str = "") -> CreditRequest:
    """Approve a pending credit: the money moves now, exactly once; the approver is not the requester.

    409 "Credit request is already X" unless it is pending; the model's transition refuses the requester
    (403 four eyes) and a role that may not decide credits (403).
    """
    reason = _decision_reason(reason, required=False)
    approvals_lock_target(kind=CREDIT_KIND, target_type=CREDIT_TARGET, target_id=credit_request.pk)

    def move_money(move: Move[CreditRequest]) -> None:
        user = lock_user(move.instance.user)
        if user.is_archived:
            raise UserArchived()
        if user.is_frozen:
            raise AccountFrozen()
        _move_money(request=move.instance, locked=user, actor=actor)

    approved = fsm_move(
        credit_request,
        to=CreditStatus.APPROVED,
        actor=actor,
        note=reason,
        reason=reason,
        related=("requested_by",),
        refused=ALREADY_DECIDED,
        update_fields=DECISION_FIELDS,
        after_save=move_money,
        history=CreditRequestEvent,
        event=events.credit_approved,
    ).instance
    # decided here (the credit endpoint or page): its dual-control request follows; decided from the approval
    # queue, that request is being applied already and is left alone
    approval_settle(
        kind=CREDIT_KIND, target_type=CREDIT_TARGET, target_id=approved.pk, actor=actor, approved=True, reason=reason
    )
    return approved


@transaction.atomic
def credit_request_reject(*, credit_request: CreditRequest, actor: Staff, reason: str) -> CreditRequest:
    """Refuse a pending credit, with the reason; no money moves. The refuser is not the requester."""
    reason = _decision_reason(reason, required=True)
    approvals_lock_target(kind=CREDIT_KIND, target_type=CREDIT_TARGET, target_id=credit_request.pk)
    rejected = fsm_move(
        credit_request,
        to=CreditStatus.REJECTED,
        actor=actor,
        note=reason,
        reason=reason,
        related=("requested_by",),
        refused=ALREADY_DECIDED,
        update_fields=DECISION_FIELDS,
        history=CreditRequestEvent,
        event=events.credit_rejected,
    ).instance
    approval_settle(
        kind=CREDIT_KIND, target_type=CREDIT_TARGET, target_id=rejected.pk, actor=actor, approved=False, reason=reason
    )
    return rejected


def _decision_reason(reason: str, *, required: bool) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise ValidationFailed("A reason is required", details={"reason": ["A reason is required."]})
    if len(reason) > DECISION_REASON_MAX:
        raise ValidationFailed("Validation error", details={"reason": [f"At most {DECISION_REASON_MAX} characters."]})
    return reason
