"""The wallet ledger: the only place a balance moves, always together with a ledger row."""

import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import F, Subquery
from django.utils import timezone

from backoffice.errors import NotFound, ValidationFailed
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.services import Actor, Move, fsm_move, model_clean
from kyc import events, hooks
from kyc.choices import CREDIT_TYPES, INTAKE_TYPES, Channel, Decision, TransactionStatus, TransactionType
from kyc.errors import AccountArchivedConflict, InsufficientFunds
from kyc.models import PlatformUser, Transaction, TransactionEvent
from kyc.services.activity import activity_add


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


STATUS_FOR = {
    Decision.ALLOW: TransactionStatus.COMPLETED,
    Decision.REVIEW: TransactionStatus.HELD,
    Decision.BLOCK: TransactionStatus.BLOCKED,
}


def record_on_locked(
    locked: PlatformUser,
    *,
    type: str,
    amount: Decimal,
    enforce: bool = True,
    started: float | None = None,
    **fields,
) -> Transaction:
    """``transaction_record`` for a caller that already holds the user's row lock (``lock_user``).

    A completed row is screened first (``kyc.hooks.transaction_screen``): the
    row is written with the balance untouched, the rules decide, and only an
    ALLOW moves the money (a debit beyond the balance then raises
    ``InsufficientFunds`` and the caller's transaction records nothing). REVIEW
    writes the row ``HELD`` and BLOCK ``BLOCKED``, whatever the balance.
    ``enforce=False`` (admin credits, decided by staff under maker-checker)
    records the hits and raises their alerts but always moves the money.
    Runs the ``transaction_recorded`` hooks; ``locked.balance`` is the new balance afterwards.
    ``started`` (a ``time.perf_counter()`` value): the row keeps the milliseconds from then to its decision.
    """
    if type not in TransactionType.values:
        raise ValidationFailed(
            "Unknown transaction type", details={"type": [f"Must be one of {TransactionType.values}."]}
        )
    amount = Decimal(amount)
    fields["reference"] = fields.get("reference") or new_reference()
    fields["created_at"] = fields.get("created_at") or timezone.now()
    tx = Transaction(user=locked, type=type, amount=amount, **fields)
    # unique columns (reference, external_id) are the database's to enforce: a query each here would cost
    # every payment two round trips, and a racing retry must meet the unique index, not a pre-check
    _clean_row(tx)
    if tx.status == TransactionStatus.COMPLETED:
        # rules whose queries read the ledger need the row in it (balance untouched) before they run: the
        # screening writes it through ``write_row`` only then; most decisions need no query and write once
        screening = hooks.transaction_screen.first(transaction=tx, dry_run=False, write_row=_writer(tx))
        if screening is not None:
            tx.decision = screening.decision
            tx.hits = [hit.as_dict() for hit in screening.hits]
            tx.screening_failed = screening.failed
            if enforce:
                tx.status = STATUS_FOR[screening.decision]
    if tx.status == TransactionStatus.COMPLETED:
        delta = amount if type in CREDIT_TYPES else -amount
        if locked.balance + delta < 0:
            raise InsufficientFunds()
        PlatformUser.objects.filter(pk=locked.pk).update(balance=F("balance") + delta, updated_at=timezone.now())
        locked.balance += delta
        tx.balance_after = locked.balance
        activity_add(tx)
    if tx.decision:
        tx.decision_balance = locked.balance
    if started is not None:
        tx.took_ms = max(0, round((time.perf_counter() - started) * 1000))
    tx.save(force_insert=tx._state.adding)
    hooks.transaction_recorded(transaction=tx)
    return tx


def _clean_row(tx: Transaction) -> None:
    """The row's field validation; its one check constraint (amount > 0) is read here in Python.

    Django validates a check constraint with a query (and a savepoint around it): three round trips on every
    payment for what the amount already says. Only a refused amount takes Django's own check, for its message.
    """
    model_clean(
        tx,
        exclude=["user", "actor", "counterparty_user", "counterparty_vendor", "reviewed_by"],
        validate_unique=False,
        validate_constraints=not (tx.amount is not None and tx.amount > 0),
    )


def _writer(tx: Transaction):
    """Write ``tx`` as it stands (once); the screening calls it before any rule query reads the ledger."""

    def write() -> None:
        if tx._state.adding:
            tx.save(force_insert=True)

    return write


# ------------------------------------------------------------------ the payment platform's intake

MAX_AMOUNT = Decimal("1000000.00")
CENT = Decimal("0.01")
EXTERNAL_ID_MAX = 100
# a caller's clock may run a little ahead of ours; a transaction further in the future is a mistake
FUTURE_SKEW = timedelta(minutes=5)


@dataclass(frozen=True)
class IntakeResult:
    """The answer to one intake call: the row (its status, decision, hits, balance) and whether it was a retry."""

    transaction: Transaction
    replayed: bool = False

    @property
    def took_ms(self) -> int:
        return self.transaction.took_ms or 0


@dataclass(frozen=True)
class DryRunResult:
    decision: str
    hits: list[dict]
    took_ms: int
    failed: bool = False


def _intake_problems(*, type: str, amount: Decimal, external_id: str | None, occurred_at, required_id: bool):
    problems: dict[str, list[str]] = {}
    if type not in INTAKE_TYPES:
        problems["type"] = [f"Must be one of {INTAKE_TYPES}."]
    if amount <= 0:
        problems["amount"] = ["Must be greater than 0."]
    elif amount > MAX_AMOUNT:
        problems["amount"] = ["Must be at most 1000000."]
    elif amount != amount.quantize(CENT):
        problems["amount"] = ["At most 2 decimal places."]
    if external_id is not None and (not external_id.strip() or len(external_id) > EXTERNAL_ID_MAX):
        problems["external_id"] = [f"1 to {EXTERNAL_ID_MAX} characters."]
    elif external_id is None and required_id:
        problems["external_id"] = ["This field is required."]
    if occurred_at is not None and occurred_at > timezone.now() + FUTURE_SKEW:
        problems["occurred_at"] = ["Must not be in the future."]
    return problems


def _intake_fields(
    *, channel: str, counterparty_user_id, counterparty_vendor_id, counterparty_name: str, region: str, occurred_at
) -> dict:
    from vendors.models import Vendor

    problems: dict[str, list[str]] = {}
    if channel not in Channel.values:
        problems["channel"] = [f"Must be one of {Channel.values}."]
    counterparty_user = counterparty_vendor = None
    if counterparty_user_id is not None:
        counterparty_user = PlatformUser.objects.filter(pk=counterparty_user_id).first()
        if counterparty_user is None:
            problems["counterparty_user_id"] = ["No such user."]
    if counterparty_vendor_id is not None:
        counterparty_vendor = Vendor.objects.filter(pk=counterparty_vendor_id).first()
        if counterparty_vendor is None:
            problems["counterparty_vendor_id"] = ["No such vendor."]
    if problems:
        raise ValidationFailed("Validation error", details=problems)
    return {
        "channel": channel,
        "counterparty_user": counterparty_user,
        "counterparty_vendor": counterparty_vendor,
        "counterparty_name": (counterparty_name or "").strip(),
        "region": (region or "").strip(),
        "created_at": occurred_at or timezone.now(),
    }


def _intake_user(user_id) -> PlatformUser:
    user = PlatformUser.objects.filter(pk=user_id).first()
    if user is None:
        raise NotFound("User not found")
    if user.is_archived:
        raise AccountArchivedConflict()
    return user


def _replay(external_id: str) -> IntakeResult | None:
    first = Transaction.objects.filter(external_id=external_id).first()
    return IntakeResult(first, replayed=True) if first is not None else None


def transaction_intake(
    *,
    external_id: str,
    user_id,
    type: str,
    amount: Decimal,
    channel: str = Channel.WALLET,
    counterparty_user_id=None,
    counterparty_vendor_id=None,
    counterparty_name: str = "",
    region: str = "",
    occurred_at: datetime | None = None,
    actor=None,
) -> IntakeResult:
    """A payment-platform transaction: decided before the money moves, recorded once per ``external_id``.

    The same ``external_id`` again returns the first row (``replayed``) and
    records nothing. Two racing calls with one id queue on the user's row lock
    and the second finds the first; a race across users ends on the unique
    column and is answered the same way.
    """
    started = time.perf_counter()
    amount = Decimal(amount)
    problems = _intake_problems(
        type=type, amount=amount, external_id=external_id, occurred_at=occurred_at, required_id=True
    )
    if problems:
        raise ValidationFailed("Validation error", details=problems)
    external_id = external_id.strip()
    try:
        fields = _intake_fields(
            channel=channel,
            counterparty_user_id=counterparty_user_id,
            counterparty_vendor_id=counterparty_vendor_id,
            counterparty_name=counterparty_name,
            region=region,
            occurred_at=occurred_at,
        )
    except ValidationFailed:
        # a retry answers its first answer even when its counterparty has gone since
        if (replay := _replay(external_id)) is not None:
            return replay
        raise
    try:
        return _intake_once(
            user_id=user_id,
            external_id=external_id,
            type=type,
            amount=amount,
            fields=fields,
            actor=actor,
            started=started,
        )
    except IntegrityError:
        # a retry racing the first call: it queued on the wallet's lock (or, for another wallet, on the
        # unique index) and the first row exists now
        replay = _replay(external_id)
        if replay is None:
            raise
        return replay


@transaction.atomic
def _intake_once(*, user_id, external_id, type, amount, fields, actor, started) -> IntakeResult:
    # the lookup is the lock and the retry check: one statement finds the wallet, queues writers on it and
    # says whether this externalId was recorded already (a retry racing the first call still meets the
    # unique index, answered by the caller)
    first = Transaction.objects.filter(external_id=external_id).values("pk")[:1]
    locked = (
        PlatformUser.objects.select_for_update(of=("self",))
        .annotate(replay_of=Subquery(first))
        .filter(pk=user_id)
        .first()
    )
    if locked is None:
        if (replay := _replay(external_id)) is not None:
            return replay
        raise NotFound("User not found")
    if locked.replay_of is not None:
        return IntakeResult(Transaction.objects.get(pk=locked.replay_of), replayed=True)
    if locked.is_archived:
        raise AccountArchivedConflict()
    tx = record_on_locked(locked, type=type, amount=amount, external_id=external_id, started=started, **fields)
    events.transaction_taken_in(actor=actor, transaction=tx)
    return IntakeResult(tx)


def transaction_dry_run(
    *,
    user_id,
    type: str,
    amount: Decimal,
    external_id: str | None = None,
    channel: str = Channel.WALLET,
    counterparty_user_id=None,
    counterparty_vendor_id=None,
    counterparty_name: str = "",
    region: str = "",
    occurred_at: datetime | None = None,
    actor=None,
) -> DryRunResult:
    """The decision the intake would take now, without recording anything, raising an alert or moving money."""
    started = time.perf_counter()
    amount = Decimal(amount)
    problems = _intake_problems(
        type=type, amount=amount, external_id=external_id, occurred_at=occurred_at, required_id=False
    )
    if problems:
        raise ValidationFailed("Validation error", details=problems)
    user = _intake_user(user_id)
    fields = _intake_fields(
        channel=channel,
        counterparty_user_id=counterparty_user_id,
        counterparty_vendor_id=counterparty_vendor_id,
        counterparty_name=counterparty_name,
        region=region,
        occurred_at=occurred_at,
    )
    with transaction.atomic():
        # the candidate row exists only inside this block, so window rules count it; then it is rolled back
        tx = Transaction(user=user, type=type, amount=amount, reference=new_reference("DRY"), **fields)
        _clean_row(tx)
        screening = hooks.transaction_screen.first(transaction=tx, dry_run=True, write_row=_writer(tx))
        transaction.set_rollback(True)
    took_ms = max(0, round((time.perf_counter() - started) * 1000))
    if screening is None:
        return DryRunResult(decision=Decision.ALLOW, hits=[], took_ms=took_ms)
    return DryRunResult(
        decision=screening.decision,
        hits=[hit.as_dict() for hit in screening.hits],
        took_ms=took_ms,
        failed=screening.failed,
    )


# ------------------------------------------------------------------ held transactions


def _lock_held(transaction_id) -> tuple[PlatformUser, Transaction]:
    """The user's row, then the transaction's, locked in the purge's order; 404 unknown.

    Whether the row is still HELD is ``fsm_move``'s question, asked under these locks: a second release
    waits here for the first, then finds the row decided (409) and moves no money.
    """
    row = Transaction.objects.filter(pk=transaction_id).only("id", "user_id").first()
    if row is None:
        raise NotFound("Transaction not found")
    locked_user = PlatformUser.objects.select_for_update().get(pk=row.user_id)
    tx = Transaction.objects.select_for_update().get(pk=row.pk)
    return locked_user, tx


def _review_note(note: str) -> str:
    note = (note or "").strip()
    if not note:
        raise ValidationFailed("A note is required", details={"note": ["A note is required."]})
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationFailed("Validation error", details={"note": [f"At most {NOTE_MAX_LENGTH} characters."]})
    return note


@transaction.atomic
def held_transaction_release(*, transaction_id, actor: Actor, note: str) -> Transaction:
    """Complete a held transaction: the money moves now, exactly once (concurrent releases queue on the locks).

    Not enough balance at this moment: 409 INSUFFICIENT_FUNDS and the row stays HELD.
    """
    note = _review_note(note)
    locked, tx = _lock_held(transaction_id)
    delta = tx.amount if tx.type in CREDIT_TYPES else -tx.amount

    def funds(move: Move[Transaction]) -> None:
        if locked.balance + delta < 0:
            raise InsufficientFunds()

    def move_money(move: Move[Transaction]) -> None:
        PlatformUser.objects.filter(pk=locked.pk).update(balance=F("balance") + delta, updated_at=timezone.now())
        locked.balance += delta
        move.instance.balance_after = locked.balance
        activity_add(move.instance)

    tx = _decide(tx, actor=actor, note=note, to=TransactionStatus.COMPLETED, check=funds, before_save=move_money)
    # the money moved now: what counts completed rows (cash threshold reports) counts this one too
    hooks.transaction_completed(transaction=tx)
    return tx


@transaction.atomic
def held_transaction_reject(*, transaction_id, actor: Actor, note: str) -> Transaction:
    """Refuse a held transaction for good: recorded REJECTED, no money moves."""
    note = _review_note(note)
    _locked, tx = _lock_held(transaction_id)
    return _decide(tx, actor=actor, note=note, to=TransactionStatus.REJECTED)


def _decide(tx: Transaction, *, actor: Actor, note: str, to: str, **hooks_of_move) -> Transaction:
    """The decision on the locked row: the move (409 unless HELD), its history row, its audit entry, the hook."""
    move = fsm_move(
        tx,
        to=to,
        actor=actor,
        note=note,
        lock=False,  # _lock_held holds it, behind the user's row
        refused="Cannot decide a transaction that is {source}",
        update_fields=["balance_after", "reviewed_by", "reviewed_at", "review_note"],
        history=TransactionEvent,
        event=lambda move: events.held_transaction_decided(actor=actor, transaction=move.instance, note=note),
        review_note=note,
        **hooks_of_move,
    )
    hooks.held_transaction_decided(transaction=move.instance, actor=actor)
    return move.instance
