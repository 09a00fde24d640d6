"""Platform users signing up and in: their kind of principal, and the steps only users have.

The steps themselves (password rules, clashes, one-time code, tokens) are the
foundation's (``backoffice.services.auth``), shared with vendors.
"""

import secrets
import string

from django.db import transaction

from backoffice.auth import principals, tokens
from backoffice.phones import normalise_phone
from backoffice.services import principal_login, principal_register
from kyc import hooks
from kyc.errors import AccountArchived, PhoneNotVerified
from kyc.models import PlatformUser
from kyc.services.names import user_name_index

KIND = "user"
_REFERRAL_ALPHABET = string.ascii_uppercase + string.digits


def _may_sign_in(user: PlatformUser) -> None:
    if user.is_archived:
        raise AccountArchived()
    if not user.is_phone_verified:
        raise PhoneNotVerified()


PRINCIPAL = principals.PrincipalKind(
    kind=KIND,
    model="kyc.PlatformUser",
    login_field="phone_number",
    active={"is_archived": False},
    # archived users are found, then refused with their own 403 (not the 401 of a wrong password)
    login_filter={},
    login_checks=_may_sign_in,
    unique_messages={
        "phone_number": "An account with this phone number already exists",
        "email": "An account with this email already exists",
    },
    clash_message="An account with this phone number or email already exists",
    verifies_phone=True,
)


def new_referral_code() -> str:
    return "".join(secrets.choice(_REFERRAL_ALPHABET) for _ in range(8))


@transaction.atomic
def user_register(
    *, phone_number: str, password: str, first_name: str, last_name: str, email: str = ""
) -> PlatformUser:
    """Sign a user up and send a one-time code to verify the phone; the name is indexed, then the
    ``user_registered`` hooks run (PEP screening), all in the registration's transaction."""
    user = PlatformUser(
        phone_number=normalise_phone(phone_number),
        email=(email or "").strip().lower(),
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        referral_code=new_referral_code(),
    )
    principal_register(kind=KIND, principal=user, password=password, exclude=("referral_code",))
    user_name_index(user=user)
    hooks.user_registered(user=user)
    return user


def user_login(*, phone_number: str, password: str) -> tuple[PlatformUser, tokens.TokenPair]:
    return principal_login(kind=KIND, login=phone_number, password=password)
