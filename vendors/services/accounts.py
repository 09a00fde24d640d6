"""Vendor accounts: sign-up and sign-in through the foundation's shared steps (``backoffice.services.auth``)."""

from django.db import transaction

from backoffice.auth import principals, tokens
from backoffice.phones import normalise_phone
from backoffice.services import principal_login, principal_register
from vendors.models import Vendor

KIND = "vendor"

PRINCIPAL = principals.PrincipalKind(
    kind=KIND,
    model="vendors.Vendor",
    login_field="email",
    active={"is_active": True},
    unique_messages={
        "email": "A vendor with this email already exists",
        "phone_number": "A vendor with this phone number already exists",
    },
    clash_message="A vendor with this email or phone number already exists",
    verifies_phone=True,
)


@transaction.atomic
def vendor_register(
    *, business_name: str, phone_number: str, email: str, password: str, contact_name: str = ""
) -> Vendor:
    vendor = Vendor(
        business_name=business_name.strip(),
        phone_number=normalise_phone(phone_number),
        email=(email or "").strip().lower(),
        contact_name=(contact_name or "").strip(),
    )
    return principal_register(kind=KIND, principal=vendor, password=password)


def vendor_login(*, email: str, password: str) -> tuple[Vendor, tokens.TokenPair]:
    return principal_login(kind=KIND, login=email, password=password)
