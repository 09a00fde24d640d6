"""Admin credits: money added to a wallet by staff (promotions, corrections), exactly once per request.

Maker-checker: with ``CREDIT_APPROVAL_THRESHOLD`` set, a credit above it is
only a request (``PENDING``) until a second finance or admin person approves
it (the money moves then, once) or rejects it. At or below the threshold, or
with no threshold, the credit happens at once, as the interface says.
"""

import hashlib
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction

from backoffice.errors import ValidationFailed
from backoffice.models import Staff
from backoffice.services import Move, fsm_move, history_record
from kyc import events
from kyc.choices import Channel, CreditStatus, TransactionType
from kyc.errors import IdempotencyKeyReused, UserArchived
from kyc.models import CreditRequest, CreditRequestEvent, PlatformUser
from kyc.services.ledger import lock_user, new_reference, record_on_locked

MAX_CREDIT = Decimal("1000000.00")
CENT = Decimal("0.01")
DECISION_REASON_MAX = 255
# What a decision writes on the request (the state field is added by fsm_move).
DECISION_FIELDS = ("decided_by", "decided_at", "decision_reason")
# A decision on a request that is not pending: its status says what became of it.
ALREADY_DECIDED = "Credit request is already {source}"


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
    """Above ``CREDIT_APPROVAL_THRESHOLD`` (when set) a credit waits for a second person."""
    threshold = getattr(settings, "CREDIT_APPROVAL_THRESHOLD", None)
    return threshold is not None and amount > threshold


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
    waits = needs_approval(amount)
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

    def move_money(move: Move[CreditRequest]) -> None:
        user = lock_user(move.instance.user)
        if user.is_archived:
            raise UserArchived()
        _move_money(request=move.instance, locked=user, actor=actor)

    return fsm_move(
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


@transaction.atomic
def credit_request_reject(*, credit_request: CreditRequest, actor: Staff, reason: str) -> CreditRequest:
    """Refuse a pending credit, with the reason; no money moves. The refuser is not the requester."""
    reason = _decision_reason(reason, required=True)
    return fsm_move(
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


def _decision_reason(reason: str, *, required: bool) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise ValidationFailed("A reason is required", details={"reason": ["A reason is required."]})
    if len(reason) > DECISION_REASON_MAX:
        raise ValidationFailed("Validation error", details={"reason": [f"At most {DECISION_REASON_MAX} characters."]})
    return reason
