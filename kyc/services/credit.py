"""Admin credits: money added to a wallet by staff (promotions, corrections), exactly once per request."""

import hashlib
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction

from backoffice.errors import ValidationFailed
from backoffice.services import audit_record
from kyc.choices import Channel, TransactionType
from kyc.errors import IdempotencyKeyReused, UserArchived
from kyc.models import CreditRequest, PlatformUser
from kyc.services.ledger import lock_user, new_reference, record_on_locked

MAX_CREDIT = Decimal("1000000.00")
CENT = Decimal("0.01")


@dataclass(frozen=True)
class CreditResult:
    """What a credit did: the balances around it and the ledger row that moved the money."""

    previous_balance: Decimal
    added_amount: Decimal
    new_balance: Decimal
    transaction_id: object
    reference: str
    # True when the idempotency key had been used already: this is the first call's result, nothing moved now
    replayed: bool = False

    @classmethod
    def of(cls, request: CreditRequest, *, replayed: bool = False) -> "CreditResult":
        return cls(
            previous_balance=request.previous_balance,
            added_amount=request.amount,
            new_balance=request.new_balance,
            transaction_id=request.transaction_id,
            reference=request.reference,
            replayed=replayed,
        )


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


def _fingerprint(*, user_id, amount: Decimal, reason: str) -> str:
    return hashlib.sha256(f"{user_id}|{amount}|{reason}".encode()).hexdigest()


def user_credit(
    *, user: PlatformUser, actor, amount: Decimal, reason: str, idempotency_key: str | None = None
) -> CreditResult:
    """Admin credit: an ADMIN_CREDIT ledger row and the balance, together, recorded as a CreditRequest.

    With ``idempotency_key`` a retry by the same staff member returns the first
    result without crediting again, and the same key with another user, amount
    or reason is 422. Two racing requests with one key: the loser hits the
    unique constraint, and the retry below returns the winner's result.
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
def _credit_once(*, user, actor, amount: Decimal, reason: str, key: str | None, fingerprint: str) -> CreditResult:
    locked = lock_user(user)
    if key is not None:
        previous = CreditRequest.objects.filter(requested_by=actor, idempotency_key=key).first()
        if previous is not None:
            if previous.fingerprint != fingerprint:
                raise IdempotencyKeyReused()
            return CreditResult.of(previous, replayed=True)
    if locked.is_archived:
        raise UserArchived()
    previous_balance = locked.balance
    tx = record_on_locked(
        locked,
        type=TransactionType.ADMIN_CREDIT,
        amount=amount,
        channel=Channel.WALLET,
        reason=reason,
        description="Admin credit",
        actor=actor,
        reference=new_reference("ADM"),
    )
    request = CreditRequest.objects.create(
        requested_by=actor,
        idempotency_key=key,
        fingerprint=fingerprint,
        user=locked,
        amount=amount,
        reason=reason,
        previous_balance=previous_balance,
        new_balance=tx.balance_after,
        transaction=tx,
        reference=tx.reference,
    )
    audit_record(
        actor=actor,
        action="user.credit",
        object_type="kyc_user",
        object_id=locked.pk,
        changes={
            "amount": str(amount),
            "reason": reason,
            "previous_balance": str(previous_balance),
            "new_balance": str(tx.balance_after),
            "transaction_id": str(tx.pk),
            "credit_request_id": str(request.pk),
            "idempotency_key": key or "",
        },
    )
    user.balance = tx.balance_after
    return CreditResult.of(request)
