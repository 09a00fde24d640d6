"""Writes on vendors: registration, sign-in and phone verification."""

from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from backoffice import tokens
from backoffice.errors import Conflict, ValidationFailed, django_validation_details
from backoffice.otp import otp_check, otp_issue
from backoffice.phones import normalise_phone
from backoffice.services import check_password_or_fail, validate_new_password
from vendors.models import Vendor


@transaction.atomic
def vendor_register(
    *, business_name: str, phone_number: str, email: str, password: str, contact_name: str = ""
) -> Vendor:
    phone = normalise_phone(phone_number)
    email = (email or "").strip().lower()
    if Vendor.objects.filter(email__iexact=email).exists():
        raise Conflict("A vendor with this email already exists")
    if Vendor.objects.filter(phone_number=phone).exists():
        raise Conflict("A vendor with this phone number already exists")
    vendor = Vendor(
        business_name=business_name.strip(), phone_number=phone, email=email, contact_name=(contact_name or "").strip()
    )
    validate_new_password(password, principal=vendor)
    vendor.password = make_password(password)
    try:
        vendor.full_clean()
    except ValidationError as exc:
        raise ValidationFailed("Validation error", details=django_validation_details(exc)) from None
    try:
        with transaction.atomic():
            vendor.save()
    except IntegrityError:
        raise Conflict("A vendor with this email or phone number already exists") from None
    otp_issue(phone_number=phone)
    return vendor


def vendor_login(*, email: str, password: str) -> tuple[Vendor, tokens.TokenPair]:
    vendor = Vendor.objects.filter(email__iexact=(email or "").strip(), is_active=True).first()
    check_password_or_fail(vendor, password)
    Vendor.objects.filter(pk=vendor.pk).update(last_login=timezone.now())
    return vendor, tokens.issue_pair(kind=tokens.VENDOR, principal_id=vendor.pk)


# Not atomic: a wrong code's attempt count must be committed even though the call fails.
def vendor_phone_verify(*, vendor: Vendor, code: str) -> Vendor:
    otp_check(phone_number=vendor.phone_number, code=code)
    vendor.is_phone_verified = True
    vendor.save(update_fields=["is_phone_verified", "updated_at"])
    return vendor
