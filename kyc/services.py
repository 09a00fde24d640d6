"""Writes on KYC users and their ledger. Every write goes through here."""

import secrets
import string
from datetime import datetime
from decimal import Decimal

from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from backoffice import tokens
from backoffice.errors import Conflict, DomainError, ValidationFailed, django_validation_details
from backoffice.otp import otp_check, otp_issue
from backoffice.phones import normalise_phone
from backoffice.services import check_password_or_fail, validate_new_password
from kyc.choices import CREDIT_TYPES, Channel, TransactionStatus, TransactionType
from kyc.models import PlatformUser, Transaction

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
    user.balance = locked.balance
    return tx
