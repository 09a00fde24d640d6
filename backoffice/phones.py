"""Phone numbers in E.164, parsed with Google's libphonenumber (default region: Eswatini)."""

import phonenumbers
from django.conf import settings

from backoffice.errors import ValidationFailed


def normalise_phone(raw: str, *, field: str = "phoneNumber") -> str:
    """``+268 7612 3456`` or ``76123456`` -> ``+26876123456``; 400 when it is not a valid number."""
    try:
        parsed = phonenumbers.parse(str(raw or ""), settings.PHONE_DEFAULT_REGION)
    except phonenumbers.NumberParseException:
        parsed = None
    if parsed is None or not phonenumbers.is_valid_number(parsed):
        raise ValidationFailed(
            "Invalid phone number", details={field: ["Enter a valid phone number with country code."]}
        )
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def try_normalise_phone(raw: str) -> str | None:
    try:
        return normalise_phone(raw)
    except ValidationFailed:
        return None
