"""The wallet ledger and the record of staff credit requests."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from backoffice.errors import Forbidden
from backoffice.fsm import transition_table
from backoffice.jsondepth import BoundedJSONField
from backoffice.models import Staff, StateChange
from backoffice.money import money
from kyc.choices import CREDIT_TYPES, Channel, CreditStatus, Decision, TransactionStatus, TransactionType
from kyc.errors import FourEyesRequired
from kyc.models.users import MONEY, PlatformUser


class Transaction(models.Model):
    """One ledger row of a user's wallet.

    ``amount`` is always positive; ``type`` says whether it credits or debits
    the wallet. ``balance_after`` is the wallet balance right after a completed
    row was applied, so any balance can be explained row by row.

    A row screened when it was recorded carries its ``decision`` (ALLOW,
    REVIEW, BLOCK) and the rule ``hits`` that made it (rule id, version,
    severity, action): REVIEW rows wait ``HELD`` until an officer releases
    (the money moves then) or rejects them (``reviewed_by``/``review_note``);
    BLOCK rows stay ``BLOCKED`` and never move money. ``external_id`` is the
    payment platform's id, unique, so a retry finds the first answer
    (``decision_balance`` and ``took_ms`` are that answer's figures).
    ``screening_failed``: the engine failed at record time (fail-open), the
    batch scan must look at this row.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # no index of its own: ``kyc_tx_user_window`` starts with the user (one index fewer to write per payment)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="transactions", db_index=False)
    type = models.CharField(max_length=16, choices=TransactionType.choices)
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    currency = models.CharField(max_length=3, default="SZL")
    # a state machine only for the officer's decision on a HELD row (release, reject); every other status is
    # written once, when the row is recorded. Not protected: rows are refreshed and bulk-loaded.
    status = FSMField(max_length=10, choices=TransactionStatus.choices, default=TransactionStatus.COMPLETED)
    channel = models.CharField(max_length=16, choices=Channel.choices, default=Channel.WALLET)
    reference = models.CharField(max_length=64, unique=True)
    reason = models.CharField(max_length=255, blank=True, default="")
    description = models.CharField(max_length=255, blank=True, default="")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Staff member who made an admin credit",
    )
    counterparty_user = models.ForeignKey(
        PlatformUser, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    counterparty_vendor = models.ForeignKey(
        "vendors.Vendor", null=True, blank=True, on_delete=models.SET_NULL, related_name="transactions"
    )
    country = models.CharField(max_length=2, default="SZ", help_text="ISO 3166-1 alpha-2 where it happened")
    region = models.CharField(max_length=64, blank=True, default="")
    balance_after = models.DecimalField(**MONEY, null=True, blank=True)
    created_at = models.DateTimeField(db_index=True)
    external_id = models.CharField(max_length=100, null=True, blank=True, unique=True)
    # database defaults too: bulk loaders (COPY) and raw writers that predate these columns keep working
    counterparty_name = models.CharField(max_length=255, blank=True, default="", db_default="")
    decision = models.CharField(max_length=8, choices=Decision.choices, blank=True, default="", db_default="")
    hits = BoundedJSONField(default=list, blank=True, db_default=[])
    decision_balance = models.DecimalField(**MONEY, null=True, blank=True)
    took_ms = models.PositiveIntegerField(null=True, blank=True)
    screening_failed = models.BooleanField(default=False, db_default=False)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True, default="", db_default="")

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # a wallet's rows by time (its page, newest first, read backwards), and every window an AML rule
            # reads when it decides a payment: the columns the window queries filter and sum are in the index
            # (PostgreSQL's INCLUDE; other databases get the plain key), so a 30-day window of a busy wallet is
            # an index-only range instead of a heap page per row
            models.Index(
                fields=["user", "created_at"],
                include=["status", "type", "amount", "channel", "counterparty_user", "counterparty_vendor", "id"],
                name="kyc_tx_user_window",
            ),
            models.Index(fields=["type", "created_at"], name="kyc_tx_type_created"),
            # the held queue, oldest first
            models.Index(fields=["status", "created_at"], name="kyc_tx_status_created"),
        ]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="kyc_tx_amount_positive")]

    def __str__(self):
        return f"{self.reference} {self.get_type_display()} {money(self.amount, self.currency)}"  # words, not TOP_UP

    @property
    def is_credit(self) -> bool:
        return self.type in CREDIT_TYPES

    @property
    def signed_amount(self) -> Decimal:
        return self.amount if self.is_credit else -self.amount

    # ------------------------------------------------------------ the decision on a held row

    def _review(self, actor: Staff | None, review_note: str) -> None:
        self.reviewed_by = actor
        self.reviewed_at = timezone.now()
        self.review_note = review_note

    @transition(field=status, source=TransactionStatus.HELD, target=TransactionStatus.COMPLETED)
    def release(self, *, actor: Staff | None, review_note: str) -> None:
        """An officer lets a held row through; the service moves the money (``balance_after``) with it."""
        self._review(actor, review_note)

    @transition(field=status, source=TransactionStatus.HELD, target=TransactionStatus.REJECTED)
    def reject(self, *, actor: Staff | None, review_note: str) -> None:
        """An officer refuses a held row for good; no money moves."""
        self._review(actor, review_note)


class TransactionEvent(StateChange):
    """One decision on a held ledger row (released or rejected): who, when and the officer's note.

    A row's recording is the row itself (``created_at``, ``decision``, ``hits``); history starts at the decision.
    """

    transaction = models.ForeignKey(Transaction, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=TransactionStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=TransactionStatus.choices)

    class Meta(StateChange.Meta):
        verbose_name = "transaction event"

    def __str__(self):
        return f"{self.from_status or '(new)'} -> {self.to_status}"  # shown under its transaction: no id


# The capability that makes (and decides) credits: finance and admin (backoffice.roles).
CREDIT_CAPABILITY = "users.credit"


class IntakeRefusal(models.Model):
    """A payment the intake refused (not enough money, an archived account): no ledger row, but its answer.

    The platform acts on the first answer to an ``external_id``: a retry of a refused payment must be
    refused the same way, even if the wallet could pay it by now, or the platform would decline a payment
    whose money we later took. One ``external_id`` has either a ledger row or a refusal.
    """

    external_id = models.CharField(max_length=100, unique=True)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="+")
    code = models.CharField(max_length=32)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"{self.external_id} refused {self.code}"


class CreditRequest(ConcurrentTransitionMixin, models.Model):
    """A staff member's request to credit a wallet, its decision, and what it did.

    Every admin credit leaves one: who asked, for whom, how much and why, the
    balances around it and the ledger row. Below ``CREDIT_APPROVAL_THRESHOLD``
    (or with none set) the credit happens at once (``CREDITED``). Above it the
    request waits (``PENDING``) until a second finance or admin person
    approves it, which moves the money, or rejects it (maker-checker):
    ``status`` is a protected state machine whose ``@transition`` methods
    refuse the requester (four eyes), and a check constraint backs that up.
    With an ``Idempotency-Key`` header (``idempotency_key``, unique per staff
    member) a retry returns this record instead of asking again;
    ``fingerprint`` (user, amount, reason) tells a retry from a different
    request that reuses the key.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    fingerprint = models.CharField(max_length=64)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="credit_requests")
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    reason = models.CharField(max_length=255)
    status = FSMField(
        max_length=10, choices=CreditStatus.choices, default=CreditStatus.CREDITED, protected=True, db_index=True
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=255, blank=True, default="")
    previous_balance = models.DecimalField(**MONEY, null=True, blank=True)
    new_balance = models.DecimalField(**MONEY, null=True, blank=True)
    transaction = models.ForeignKey(Transaction, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reference = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "credit request"
        constraints = [
            models.UniqueConstraint(
                fields=["requested_by", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="kyc_credit_request_key_unique",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="kyc_credit_request_amount_positive"),
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=F("requested_by")),
                name="kyc_credit_request_four_eyes",
            ),
        ]
        indexes = [models.Index(fields=["status", "-created_at"], name="kyc_credit_request_queue")]

    def __str__(self):
        return f"Credit of {money(self.amount)} ({self.get_status_display().lower()})"

    @property
    def went_through_approval(self) -> bool:
        return self.status != CreditStatus.CREDITED

    # ------------------------------------------------------------ maker-checker

    def _guard(self, actor: Staff | None) -> None:
        if not getattr(actor, "has_capability", None) or not actor.has_capability(CREDIT_CAPABILITY):
            raise Forbidden("Your role does not allow deciding credits")
        if getattr(actor, "pk", None) == self.requested_by_id:
            raise FourEyesRequired()

    def _decide(self, actor: Staff | None, reason: str) -> None:
        self._guard(actor)
        self.decided_by = actor
        self.decided_at = timezone.now()
        self.decision_reason = reason

    @transition(field=status, source=CreditStatus.PENDING, target=CreditStatus.APPROVED)
    def approve(self, *, actor: Staff | None, reason: str = "") -> None:
        """A second finance or admin person approves; the service then moves the money."""
        self._decide(actor, reason)

    @transition(field=status, source=CreditStatus.PENDING, target=CreditStatus.REJECTED)
    def reject(self, *, actor: Staff | None, reason: str) -> None:
        """A second finance or admin person refuses the credit; no money moves."""
        self._decide(actor, reason)


CREDIT_TRANSITIONS: dict[tuple[str, str], str] = transition_table(CreditRequest)


class CreditRequestEvent(StateChange):
    """One step of a credit request: asked (from empty), approved or rejected; who, when and why."""

    credit_request = models.ForeignKey(CreditRequest, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=CreditStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=CreditStatus.choices)

    class Meta(StateChange.Meta):
        verbose_name = "credit request event"

    def __str__(self):
        # shown as a history row's title (the inline's rows): the step in words, not the request's UUID
        step = f"{self.get_from_status_display()} → " if self.from_status else "Asked: "
        return f"{step}{self.get_to_status_display()} on {self.created_at:%Y-%m-%d %H:%M}" if self.created_at else step
