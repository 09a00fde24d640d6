"""Writes on KYC users and their ledger. Every write goes through here."""

import hashlib
import logging
import secrets
import string
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal

from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from backoffice import tokens
from backoffice.errors import Conflict, DomainError, Unprocessable, ValidationFailed, django_validation_details
from backoffice.otp import otp_check, otp_issue
from backoffice.phones import normalise_phone
from backoffice.services import audit_record, check_password_or_fail, validate_new_password
from kyc.choices import CREDIT_TYPES, Channel, TransactionStatus, TransactionType
from kyc.models import CreditRequest, PlatformUser, Transaction
from kyc.selectors import user_has_retention_hold

logger = logging.getLogger("kyc.services")

_REFERRAL_ALPHABET = string.ascii_uppercase + string.digits


class PhoneNotVerified(DomainError):
    status = 403
    code = "PHONE_NOT_VERIFIED"
    default_message = "Verify your phone number before logging in"


class AccountArchived(DomainError):
    status = 403
    code = "ACCOUNT_ARCHIVED"
    default_message = "This account is archived"


class InsufficientFunds(DomainError):
    status = 409
    code = "INSUFFICIENT_FUNDS"
    default_message = "The wallet balance is too low for this transaction"


def new_referral_code() -> str:
    return "".join(secrets.choice(_REFERRAL_ALPHABET) for _ in range(8))


def new_reference(prefix: str = "TX") -> str:
    return f"{prefix}-{timezone.now():%Y%m%d}-{secrets.token_hex(6).upper()}"


def _full_clean(instance, exclude=None) -> None:
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as exc:
        raise ValidationFailed("Validation error", details=django_validation_details(exc)) from None


@transaction.atomic
def user_register(
    *, phone_number: str, password: str, first_name: str, last_name: str, email: str = ""
) -> PlatformUser:
    """Sign a user up and send a one-time code to verify the phone."""
    phone = normalise_phone(phone_number)
    email = (email or "").strip().lower()
    if PlatformUser.objects.filter(phone_number=phone).exists():
        raise Conflict("An account with this phone number already exists")
    if email and PlatformUser.objects.filter(email__iexact=email).exists():
        raise Conflict("An account with this email already exists")
    user = PlatformUser(
        phone_number=phone,
        email=email,
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        referral_code=new_referral_code(),
    )
    validate_new_password(password, principal=user)
    user.password = make_password(password)
    _full_clean(user, exclude=["referral_code"])
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        raise Conflict("An account with this phone number or email already exists") from None
    otp_issue(phone_number=phone)
    return user


def user_login(*, phone_number: str, password: str) -> tuple[PlatformUser, tokens.TokenPair]:
    try:
        phone = normalise_phone(phone_number)
    except ValidationFailed:
        phone = None
    user = PlatformUser.objects.filter(phone_number=phone).first() if phone else None
    check_password_or_fail(user, password)
    if user.is_archived:
        raise AccountArchived()
    if not user.is_phone_verified:
        raise PhoneNotVerified()
    PlatformUser.objects.filter(pk=user.pk).update(last_login=timezone.now())
    return user, tokens.issue_pair(kind=tokens.USER, principal_id=user.pk)


# Not atomic: a wrong code's attempt count must be committed even though the call fails.
def user_phone_verify(*, user: PlatformUser, code: str) -> PlatformUser:
    otp_check(phone_number=user.phone_number, code=code)
    user.is_phone_verified = True
    user.save(update_fields=["is_phone_verified", "updated_at"])
    return user


# Called with every ledger row right after it is written, inside the same database transaction
# and under the wallet's row lock: the AML engine registers here (``on_transaction_recorded``),
# and a hook that raises a DomainError refuses the transaction (nothing is written).
TRANSACTION_HOOKS: list[Callable[[Transaction], None]] = []


def on_transaction_recorded(hook: Callable[[Transaction], None]) -> Callable[[Transaction], None]:
    if hook not in TRANSACTION_HOOKS:
        TRANSACTION_HOOKS.append(hook)
    return hook


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
    actor=None,
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
    if type not in TransactionType.values:
        raise ValidationFailed(
            "Unknown transaction type", details={"type": [f"Must be one of {TransactionType.values}."]}
        )
    amount = Decimal(amount)
    locked = PlatformUser.objects.select_for_update().get(pk=user.pk)
    tx = Transaction(
        user=locked,
        type=type,
        amount=amount,
        channel=channel,
        status=status,
        reason=reason,
        description=description,
        reference=reference or new_reference(),
        actor=actor,
        counterparty_user=counterparty_user,
        counterparty_vendor=counterparty_vendor,
        country=country,
        region=region,
        created_at=created_at or timezone.now(),
    )
    _full_clean(tx, exclude=["user", "actor", "counterparty_user", "counterparty_vendor"])
    if status == TransactionStatus.COMPLETED:
        delta = amount if type in CREDIT_TYPES else -amount
        if locked.balance + delta < 0:
            raise InsufficientFunds()
        PlatformUser.objects.filter(pk=locked.pk).update(balance=F("balance") + delta, updated_at=timezone.now())
        locked.refresh_from_db(fields=["balance"])
        tx.balance_after = locked.balance
    tx.save()
    for hook in TRANSACTION_HOOKS:
        hook(tx)
    user.balance = locked.balance
    return tx


# ---------------------------------------------------------------- staff writes on users

USER_EDITABLE_FIELDS = {"firstName": "first_name", "lastName": "last_name", "email": "email"}
MAX_CREDIT = Decimal("1000000.00")


class RetentionHold(DomainError):
    status = 409
    code = "RETENTION_HOLD"
    default_message = "This user's records are under a legal retention hold and cannot be deleted"


class UserArchived(DomainError):
    status = 409
    code = "USER_ARCHIVED"
    default_message = "The user is archived; restore the account first"


def _audit(*, actor, action: str, user_id, changes: dict | None = None) -> None:
    audit_record(actor=actor, action=action, object_type="kyc_user", object_id=user_id, changes=changes)


def _lock(user: PlatformUser) -> PlatformUser:
    return PlatformUser.objects.select_for_update().get(pk=user.pk)


@transaction.atomic
def user_update(*, user: PlatformUser, actor, data: dict) -> PlatformUser:
    """Change a user's first name, last name or e-mail; anything else is refused and nothing is written.

    ``data`` uses the API's names (firstName, lastName, email).
    """
    unknown = sorted(set(data) - set(USER_EDITABLE_FIELDS))
    if unknown:
        raise ValidationFailed(
            "Validation error", details={name: ["This field cannot be updated."] for name in unknown}
        )
    if not data:
        raise ValidationFailed("Validation error", details={"nonFieldErrors": ["Send firstName, lastName or email."]})
    locked = _lock(user)
    changes = {}
    for api_name, model_field in USER_EDITABLE_FIELDS.items():
        if api_name not in data:
            continue
        value = data[api_name]
        value = value.strip() if isinstance(value, str) else value
        if model_field == "email":
            value = (value or "").lower()
        if getattr(locked, model_field) != value:
            changes[api_name] = {"from": getattr(locked, model_field), "to": value}
            setattr(locked, model_field, value)
    if "email" in data and locked.email:
        if PlatformUser.objects.filter(email__iexact=locked.email).exclude(pk=locked.pk).exists():
            raise Conflict("An account with this email already exists")
    _full_clean(locked, exclude=["password"])
    if changes:
        locked.save(update_fields=[USER_EDITABLE_FIELDS[k] for k in changes] + ["updated_at"])
        _audit(actor=actor, action="user.update", user_id=locked.pk, changes=changes)
    return locked


@transaction.atomic
def user_archive(*, user: PlatformUser, actor) -> PlatformUser:
    """Soft-delete: the user disappears from the active list and can no longer log in. Idempotent."""
    locked = _lock(user)
    if not locked.is_archived:
        locked.is_archived = True
        locked.archived_at = timezone.now()
        locked.save(update_fields=["is_archived", "archived_at", "updated_at"])
        _audit(actor=actor, action="user.archive", user_id=locked.pk, changes={"isArchived": True})
    return locked


@transaction.atomic
def user_unarchive(*, user: PlatformUser, actor) -> PlatformUser:
    """Restore an archived user. Idempotent."""
    locked = _lock(user)
    if locked.is_archived:
        locked.is_archived = False
        locked.archived_at = None
        locked.save(update_fields=["is_archived", "archived_at", "updated_at"])
        _audit(actor=actor, action="user.unarchive", user_id=locked.pk, changes={"isArchived": False})
    return locked


def validate_credit(*, amount, reason) -> tuple[Decimal, str]:
    """amount > 0, ≤ 1,000,000, at most two decimals; reason non-empty. Returns them cleaned."""
    details: dict[str, list[str]] = {}
    value = None
    if amount is None or amount == "":
        details["amount"] = ["This field is required."]
    else:
        try:
            # a JSON number or a decimal string; a float is read through its shortest repr, never its binary value
            value = amount if isinstance(amount, Decimal) else Decimal(str(amount))
            if isinstance(amount, bool) or not value.is_finite():
                raise ArithmeticError
        except (ArithmeticError, ValueError, TypeError):
            value = None
            details["amount"] = ["A valid number is required."]
    if value is not None:
        if value <= 0:
            details["amount"] = ["Must be greater than 0."]
        elif value > MAX_CREDIT:
            details["amount"] = ["Must be at most 1000000."]
        elif value != value.quantize(Decimal("0.01")):
            details["amount"] = ["At most 2 decimal places."]
    if reason is not None and not isinstance(reason, str):
        details["reason"] = ["Must be a string."]
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason and "reason" not in details:
        details["reason"] = ["A reason is required."]
    elif len(reason) > 255:
        details["reason"] = ["At most 255 characters."]
    if details:
        raise ValidationFailed("Validation error", details=details)
    return value.quantize(Decimal("0.01")), reason


def _credit_fingerprint(*, user_id, amount: Decimal, reason: str) -> str:
    return hashlib.sha256(f"{user_id}|{amount}|{reason}".encode()).hexdigest()


def user_credit(*, user: PlatformUser, actor, amount, reason: str, idempotency_key: str | None = None) -> dict:
    """Admin credit (promotion, correction): an ADMIN_CREDIT ledger row and the balance, together.

    Returns {previousBalance, addedAmount, newBalance, transactionId, reference}.
    With ``idempotency_key`` the first result is stored per staff member; a
    retry returns it without crediting again, and the same key with another
    user, amount or reason is 422. Two racing requests with one key: the
    loser hits the unique constraint, and the retry below returns the
    winner's result.
    """
    amount, reason = validate_credit(amount=amount, reason=reason)
    key = (idempotency_key or "").strip() or None
    if key is not None and len(key) > 255:
        raise ValidationFailed("Validation error", details={"Idempotency-Key": ["At most 255 characters."]})
    fingerprint = _credit_fingerprint(user_id=user.pk, amount=amount, reason=reason)
    for attempt in (1, 2):
        try:
            return _user_credit_once(
                user=user, actor=actor, amount=amount, reason=reason, key=key, fingerprint=fingerprint
            )
        except IntegrityError:
            if key is None or attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


@transaction.atomic
def _user_credit_once(*, user, actor, amount: Decimal, reason: str, key: str | None, fingerprint: str) -> dict:
    locked = _lock(user)
    if key is not None:
        previous = CreditRequest.objects.filter(staff=actor, key=key).first()
        if previous is not None:
            if previous.fingerprint != fingerprint:
                raise Unprocessable(
                    "Idempotency-Key was already used for a different request",
                    code="IDEMPOTENCY_KEY_REUSED",
                )
            return previous.response
    if locked.is_archived:
        raise UserArchived()
    previous_balance = locked.balance
    tx = transaction_record(
        user=locked,
        type=TransactionType.ADMIN_CREDIT,
        amount=amount,
        channel=Channel.WALLET,
        reason=reason,
        description="Admin credit",
        actor=actor,
        reference=new_reference("ADM"),
    )
    result = {
        "previousBalance": str(previous_balance),
        "addedAmount": str(amount),
        "newBalance": str(tx.balance_after),
        "transactionId": str(tx.pk),
        "reference": tx.reference,
    }
    if key is not None:
        CreditRequest.objects.create(
            staff=actor, key=key, fingerprint=fingerprint, user=locked, transaction=tx, response=result
        )
    _audit(
        actor=actor,
        action="user.credit",
        user_id=locked.pk,
        changes={
            "amount": str(amount),
            "reason": reason,
            "previousBalance": str(previous_balance),
            "newBalance": str(tx.balance_after),
            "transactionId": str(tx.pk),
            "idempotencyKey": key or "",
        },
    )
    user.balance = tx.balance_after
    return result


def user_purge(*, user: PlatformUser, actor) -> dict:
    """Delete a user and everything of theirs, for good; their stored files go after the commit.

    Refused with 409 RETENTION_HOLD while a SAR is about them or their ledger.
    Returns {transactions, documents, verifications}: the counts deleted.
    """
    with transaction.atomic():
        locked = _lock(user)
        if user_has_retention_hold(user=locked):
            raise RetentionHold()
        files = [(doc.file.storage, doc.file.name) for doc in locked.documents.all() if doc.file.name]
        counts = {
            "transactions": locked.transactions.count(),
            "documents": locked.documents.count(),
            "verifications": locked.verifications.count(),
        }
        user_id = locked.pk
        locked.delete()
        # No name, phone or e-mail here: the point of a purge is that they are gone.
        _audit(actor=actor, action="user.purge", user_id=user_id, changes={"deleted": counts})
        transaction.on_commit(lambda: _delete_files(files))
    return counts


def _delete_files(files) -> None:
    for storage, name in files:
        try:
            storage.delete(name)
        except Exception:  # a file that is already gone must not turn a done purge into an error
            logger.exception("could not delete %s after a purge", name)
