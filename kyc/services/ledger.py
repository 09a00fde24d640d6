"""The wallet ledger: the only place a balance moves, always together with a ledger row."""

import secrets
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from backoffice.errors import ValidationFailed
from backoffice.services import Actor, model_clean
from kyc import hooks
from kyc.choices import CREDIT_TYPES, Channel, TransactionStatus, TransactionType
from kyc.errors import InsufficientFunds
from kyc.models import PlatformUser, Transaction


def new_reference(prefix: str = "TX") -> str:
    return f"{prefix}-{timezone.now():%Y%m%d}-{secrets.token_hex(6).upper()}"


def lock_user(user: PlatformUser) -> PlatformUser:
    """The user's row, locked until the transaction ends: writes on one wallet queue behind each other."""
    return PlatformUser.objects.select_for_update().get(pk=user.pk)


@transaction.atomic
def transaction_record(
    *,
    user: PlatformUser,
    type: str,
    amount: Decimal,
    channel: str = Channel.WALLET,
    status: str = TransactionStatus.COMPLETED,
    reason: str = "",
    description: str = "",
    reference: str | None = None,
    actor: Actor = None,
    counterparty_user: PlatformUser | None = None,
    counterparty_vendor=None,
    country: str = "SZ",
    region: str = "",
    created_at: datetime | None = None,
) -> Transaction:
    """Write one ledger row and, when it is completed, move the balance with it.

    The user row is locked first, so concurrent writes on one wallet queue and
    none is lost; a debit larger than the balance is refused.
    """
    locked = lock_user(user)
    tx = record_on_locked(
        locked,
        type=type,
        amount=amount,
        channel=channel,
        status=status,
        reason=reason,
        description=description,
        reference=reference,
        actor=actor,
        counterparty_user=counterparty_user,
        counterparty_vendor=counterparty_vendor,
        country=country,
        region=region,
        created_at=created_at,
    )
    user.balance = locked.balance
    return tx


def record_on_locked(locked: PlatformUser, *, type: str, amount: Decimal, **fields) -> Transaction:
    """``transaction_record`` for a caller that already holds the user's row lock (``lock_user``).

    Runs the ``transaction_recorded`` hooks; ``locked.balance`` is the new balance afterwards.
    """
    if type not in TransactionType.values:
        raise ValidationFailed(
            "Unknown transaction type", details={"type": [f"Must be one of {TransactionType.values}."]}
        )
    amount = Decimal(amount)
    fields["reference"] = fields.get("reference") or new_reference()
    fields["created_at"] = fields.get("created_at") or timezone.now()
    tx = Transaction(user=locked, type=type, amount=amount, **fields)
    model_clean(tx, exclude=["user", "actor", "counterparty_user", "counterparty_vendor"])
    if tx.status == TransactionStatus.COMPLETED:
        delta = amount if type in CREDIT_TYPES else -amount
        if locked.balance + delta < 0:
            raise InsufficientFunds()
        PlatformUser.objects.filter(pk=locked.pk).update(balance=F("balance") + delta, updated_at=timezone.now())
        locked.balance += delta
        tx.balance_after = locked.balance
    tx.save()
    hooks.transaction_recorded(transaction=tx)
    return tx
