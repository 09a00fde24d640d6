"""Signing in, for every kind of principal: one implementation of register, login and phone verification.

Staff, platform users and vendors differ only in what ``backoffice.auth.principals``
says about their kind (login field, who may sign in, extra login checks, the
messages of a clash); the steps are the same and live here once.
"""

from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone

from backoffice.auth import login_guard, mfa, principals, tokens
from backoffice.auth.otp import InvalidCode, otp_check, otp_issue
from backoffice.errors import Conflict, InvalidCredentials, ValidationFailed
from backoffice.phones import try_normalise_phone
from backoffice.toolkit import model_clean

# Spent on unknown accounts so that "no such account" takes as long as "wrong password".
_DUMMY_PASSWORD_HASH = make_password("timing-equaliser-not-a-password")


def validate_new_password(password: str, *, principal=None, field: str = "password") -> None:
    """Django's password validators; their reasons become field details of a 400."""
    try:
        validate_password(password or "", user=principal)
    except ValidationError as exc:
        raise ValidationFailed("Validation error", details={field: list(exc.messages)}) from None


def check_password_or_fail(principal, password: str) -> None:
    """Raise InvalidCredentials unless ``principal`` exists and ``password`` is its password."""
    if principal is None:
        check_password(password, _DUMMY_PASSWORD_HASH)
        raise InvalidCredentials()
    if not check_password(password, principal.password):
        raise InvalidCredentials()


def _login_value(kind: principals.PrincipalKind, raw: str) -> str | None:
    if kind.login_field == "phone_number":
        return try_normalise_phone(raw)
    return (raw or "").strip() or None


def principal_login(*, kind: str, login: str, password: str, otp: str | None = None) -> tuple[Model, tokens.TokenPair]:
    """Check the password of the principal of ``kind`` whose login field is ``login``, and its second factor
    (``otp``) when its kind has one; issue a token pair.

    The same InvalidCredentials, in the same time, whether the account exists or not. Wrong passwords and wrong
    codes count towards the login name's lockout (``backoffice.auth.login_guard``); a locked name is refused
    before its password is looked at. The count is cleared only once the whole sign-in succeeded, so a right
    password does not buy more guesses at the code.
    """
    spec = principals.get(kind)
    value = _login_value(spec, login)
    login_guard.check_account(kind=kind, login=value or login)
    principal = None
    if value is not None:
        lookup = {f"{spec.login_field}__iexact" if spec.login_field == "email" else spec.login_field: value}
        rows = spec.active if spec.login_filter is None else spec.login_filter
        principal = spec.model_class.objects.filter(**lookup, **rows).first()
    try:
        check_password_or_fail(principal, password)
    except InvalidCredentials:
        login_guard.record_failure(
            kind=kind, login=value or login, principal_id=getattr(principal, "pk", None), via="api"
        )
        raise
    if spec.second_factor is not None:
        try:
            spec.second_factor(principal, otp, "api")
        except mfa.OtpInvalid:
            login_guard.record_failure(kind=kind, login=value or login, principal_id=principal.pk, via="api")
            raise
    login_guard.record_success(kind=kind, login=value or login)
    if spec.login_checks is not None:
        spec.login_checks(principal)
    spec.model_class.objects.filter(pk=principal.pk).update(last_login=timezone.now())
    return principal, tokens.issue_pair(kind=kind, principal_id=principal.pk, principal=principal)


@transaction.atomic
def principal_register(*, kind: str, principal: Model, password: str, exclude: tuple[str, ...] = ()) -> Model:
    """Save a new principal built by its app's service: password checked and hashed, clashes 409, a code sent.

    ``principal`` is an unsaved instance whose phone number is already normalised.
    """
    spec = principals.get(kind)
    for field_name, message in spec.unique_messages.items():
        value = getattr(principal, field_name)
        if value and spec.model_class.objects.filter(**{f"{field_name}__iexact": value}).exists():
            raise Conflict(message)
    validate_new_password(password, principal=principal)
    principal.password = make_password(password)
    # uniqueness is left to the checks above and to the database's unique indexes: a row committed by
    # a concurrent registration after those checks must be a 409 like any other clash, never a 400
    model_clean(principal, exclude=exclude, validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            principal.save()
    except IntegrityError:
        raise Conflict(spec.clash_message) from None
    if spec.verifies_phone:
        otp_issue(phone_number=principal.phone_number)
    return principal


# Not atomic: a wrong code's attempt count must be committed even though the call fails.
def principal_phone_verify(*, phone_number: str, code: str) -> list[Model]:
    """Spend a one-time code; every principal holding that number has then proved it owns the phone."""
    phone = try_normalise_phone(phone_number)
    holders = principals.find_by_phone(phone) if phone else []
    if not holders:
        raise InvalidCode()
    otp_check(phone_number=phone, code=code)
    for principal in holders:
        if not principal.is_phone_verified:
            principal.is_phone_verified = True
            principal.save(update_fields=["is_phone_verified", "updated_at"])
    return holders


def principal_code_resend(*, phone_number: str) -> None:
    """Send a new code to a number an unverified principal holds; silent otherwise, so it reveals no accounts."""
    phone = try_normalise_phone(phone_number)
    holders = principals.find_by_phone(phone) if phone else []
    if any(not principal.is_phone_verified for principal in holders):
        otp_issue(phone_number=phone)
