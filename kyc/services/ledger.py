"""The wallet ledger: the only place a balance moves, always together with a ledger row."""

import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from functools import partial

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from backoffice.choices import WebhookEventType
from backoffice.errors import FourEyesRequired, InvalidTransition, NotFound, ValidationFailed
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.models import ApprovalRequest
from backoffice.money import money
from backoffice.services import Actor, Move, fsm_move, model_clean
from backoffice.services.approvals import ApprovalOutcome, approval_needed, approval_request, approvals_overtaken
from backoffice.services.webhooks import webhook_emit
from kyc import events, hooks
from kyc.choices import CREDIT_TYPES, INTAKE_TYPES, Channel, Decision, TransactionStatus, TransactionType
from kyc.errors import AccountArchivedConflict, InsufficientFunds
from kyc.models import IntakeRefusal, PlatformUser, Transaction, TransactionEvent
from kyc.services.activity import activity_add
from vendors.models import Vendor


def new_reference(prefix: str = "TX") -> str:
    return f"{prefix}-{timezone.now():%Y%m%d}-{secrets.token_hex(6).upper()}"


def lock_user(user: PlatformUser, *, deleting: bool = False) -> PlatformUser:
    """The user's row, locked until the transaction ends: writes on one wallet queue behind each other.

    FOR NO KEY UPDATE: it excludes every other writer of the row as FOR UPDATE does, but not the key-share
    lock a foreign key check takes, so a payment naming this user as its counterparty does not wait for this
    one (waiting there, while holding the audit chain's head this one needs next, it deadlocked).
    ``deleting``: FOR UPDATE, which also holds off new rows referring to the user until the row is gone.
    """
    return PlatformUser.objects.select_for_update(no_key=not deleting).get(pk=user.pk)


def _balance_move(locked: PlatformUser, delta: Decimal) -> None:
    """Add ``delta`` to a locked wallet: the exact new balance is written, not ``balance + delta`` in SQL.

    The row's lock (``lock_user``) makes the two the same on PostgreSQL, but SQLite (``make run``'s database)
    does a decimal column's arithmetic in binary floating point: after some payments a wallet held
    3.999999999998963, read (to the cent) as 4.00, so a debit of the whole E4.00 passed the funds check and then
    failed the database's non-negative check (a 500). A written value is the nearest to its cents and reads back
    exact; the first payment after this heals a balance that drifted.
    """
    locked.balance += delta
    PlatformUser.objects.filter(pk=locked.pk).update(balance=locked.balance, updated_at=timezone.now())


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
        _balance_move(locked, delta)
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


# what a refusal recorded for an externalId answers again when the same externalId comes back
REFUSALS = {error.code: error for error in (InsufficientFunds, AccountArchivedConflict)}


_ANSWERED = (
    f"SELECT (SELECT id FROM {Transaction._meta.db_table} WHERE external_id = %s),"
    f" (SELECT code FROM {IntakeRefusal._meta.db_table} WHERE external_id = %s)"
)


def _replay(external_id: str) -> IntakeResult | None:
    """The first answer to ``external_id``: its row (``replayed``), its refusal raised again, or None.

    Whether there is an answer is one statement (a row and a refusal read in one snapshot): every payment asks
    it, and nearly every one has none; only a retry reads its row after.
    """
    with connection.cursor() as cursor:
        cursor.execute(_ANSWERED, [external_id, external_id])
        tx_id, refusal = cursor.fetchone()
    if tx_id is not None:
        return IntakeResult(Transaction.objects.get(pk=tx_id), replayed=True)
    if refusal is not None:
        raise REFUSALS[refusal]()
    return None


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


def _intake_once(**call) -> IntakeResult:
    """``_intake_locked`` in its own transaction; a refusal it returns is raised once that has committed."""
    with transaction.atomic():
        outcome = _intake_locked(**call)
    if isinstance(outcome, Exception):
        raise outcome  # after the commit: the refusal is recorded, so a retry answers it again
    return outcome


def _intake_locked(*, user_id, external_id, type, amount, fields, actor, started) -> IntakeResult | Exception:
    """Inside the transaction: the wallet's lock, then whether ``external_id`` has an answer, then the decision.

    The retry check is a statement of its own AFTER the lock. Under READ COMMITTED each statement reads a
    snapshot taken when it starts; a check inside the locking statement (a subquery) would read the one taken
    before this call queued behind a first call with the same id, and miss the row that call committed: the
    retry of a debit of nearly the whole balance then met an emptied wallet and answered 409 to a payment
    that had been taken (issue 30). A retry for another wallet meets the unique index (the caller answers it).
    """
    # FOR NO KEY UPDATE as in lock_user; a key is unique: LIMIT 1 without first()'s ORDER BY, which costs
    # compiling on every payment and buys nothing
    locked = next(iter(PlatformUser.objects.select_for_update(of=("self",), no_key=True).filter(pk=user_id)[:1]), None)
    if locked is None:
        if (replay := _replay(external_id)) is not None:
            return replay
        raise NotFound("User not found")
    if (replay := _replay(external_id)) is not None:
        return replay
    if locked.is_archived:
        return _refuse(locked, external_id, AccountArchivedConflict())
    record = partial(record_on_locked, locked, type=type, amount=amount, external_id=external_id, started=started)
    if type not in CREDIT_TYPES and amount > locked.balance:
        # only a debit beyond the balance can be refused, after the rules ran (and perhaps wrote the row):
        # a savepoint undoes that, and the refusal is kept instead; every other payment skips the savepoint
        try:
            with transaction.atomic():
                tx = record(**fields)
        except InsufficientFunds as refused:
            return _refuse(locked, external_id, refused)
    else:
        tx = record(**fields)
    events.transaction_taken_in(actor=actor, transaction=tx)
    return IntakeResult(tx)


def _refuse(locked: PlatformUser, external_id: str, refused: Exception) -> Exception:
    IntakeRefusal.objects.create(external_id=external_id, user=locked, code=refused.code)
    return refused


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


# The dual-control kind of a release above HELD_RELEASE_FOUR_EYES_ABOVE (registered by kyc.services.approvals)
HELD_RELEASE_KIND = "kyc.held_release"
HELD_TARGET = "transaction"


@transaction.atomic
def held_transaction_release_ask(*, transaction_id, actor: Actor, note: str) -> ApprovalOutcome:
    """Release a held transaction, or, above ``HELD_RELEASE_FOUR_EYES_ABOVE`` (SZL), ask a second person to
    (docs/dual-control.md): ``outcome.result`` is the released transaction, or ``outcome.request`` the waiting
    request. 404 unknown; 409 unless HELD, or when a release of it already waits."""
    note = _review_note(note)
    tx = Transaction.objects.filter(pk=transaction_id).select_related("user").first()
    if tx is None:
        raise NotFound("Transaction not found")
    if tx.status != TransactionStatus.HELD:
        raise InvalidTransition(f"Cannot decide a transaction that is {tx.status}")
    return approval_request(
        kind=HELD_RELEASE_KIND,
        actor=actor,
        summary=f"Release held {tx.get_type_display().lower()} of {money(tx.amount)} for {tx.user.full_name}",
        payload={"transaction": str(tx.pk), "note": note},
        reason=note,
        target_type=HELD_TARGET,
        target_id=str(tx.pk),
        amount=tx.amount,
    )


@transaction.atomic
def held_transaction_release(
    *, transaction_id, actor: Actor, note: str, approval: ApprovalRequest | None = None
) -> Transaction:
    """Complete a held transaction: the money moves now, exactly once (concurrent releases queue on the locks).

    Above ``HELD_RELEASE_FOUR_EYES_ABOVE`` only an approved dual-control request (``approval``, from
    ``held_transaction_release_ask``) may release it: otherwise 403 FOUR_EYES_REQUIRED, whoever calls.
    Not enough balance at this moment: 409 INSUFFICIENT_FUNDS and the row stays HELD.
    """
    note = _review_note(note)
    locked, tx = _lock_held(transaction_id)
    if approval is None and approval_needed(kind=HELD_RELEASE_KIND, amount=tx.amount):
        raise FourEyesRequired("Releasing this transaction needs a second person: ask for the release")
    delta = tx.amount if tx.type in CREDIT_TYPES else -tx.amount

    def funds(move: Move[Transaction]) -> None:
        if locked.balance + delta < 0:
            raise InsufficientFunds()

    def move_money(move: Move[Transaction]) -> None:
        _balance_move(locked, delta)
        move.instance.balance_after = locked.balance
        activity_add(move.instance)

    tx = _decide(tx, actor=actor, note=note, to=TransactionStatus.COMPLETED, check=funds, before_save=move_money)
    # the money moved now: what counts completed rows (cash threshold reports) counts this one too
    hooks.transaction_completed(transaction=tx)
    return tx


@transaction.atomic
def held_transaction_reject(*, transaction_id, actor: Actor, note: str) -> Transaction:
    """Refuse a held transaction for good: recorded REJECTED, no money moves. A release waiting for its second
    person lapses (its requests are locked first, in the order an approval takes them)."""
    note = _review_note(note)
    approvals_overtaken(kind=HELD_RELEASE_KIND, target_type=HELD_TARGET, target_id=transaction_id)
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
    _tell_the_platform(move.instance)
    return move.instance


def _tell_the_platform(tx: Transaction) -> None:
    """The payment platform asked before the money moved and was told REVIEW: the outcome, as a webhook written
    in this transaction (contract: events to the payment platform)."""
    released = tx.status == TransactionStatus.COMPLETED
    balance = PlatformUser.objects.filter(pk=tx.user_id).values_list("balance", flat=True).first()
    webhook_emit(
        event_type=WebhookEventType.TRANSACTION_RELEASED if released else WebhookEventType.TRANSACTION_REJECTED,
        data={
            "transaction_id": str(tx.pk),
            "external_id": tx.external_id,
            "user_id": str(tx.user_id),
            "status": tx.status,
            "amount": float(tx.amount),
            "balance": float(balance) if balance is not None else None,
        },
    )
