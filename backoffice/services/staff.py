"""Writes on staff accounts: create or update from the command line, save from the admin site, sign in."""

from django.core.exceptions import ValidationError
from django.db import transaction

from backoffice import tokens
from backoffice.choices import StaffRole
from backoffice.errors import ValidationFailed, django_validation_details
from backoffice.models import Staff
from backoffice.services.audit import audit_record
from backoffice.services.auth import principal_login, validate_new_password


def staff_login(*, email: str, password: str) -> tuple[Staff, tokens.TokenPair]:
    return principal_login(kind=tokens.STAFF, login=email, password=password)


@transaction.atomic
def staff_upsert(
    *,
    email: str,
    password: str,
    role: str,
    first_name: str | None = None,
    last_name: str | None = None,
    actor: Staff | None = None,
) -> tuple[Staff, bool]:
    """Create a staff account, or update the one with this e-mail (idempotent)."""
    if role not in StaffRole.values:
        raise ValidationFailed(
            f"Unknown role {role!r}", details={"role": [f"Must be one of {', '.join(StaffRole.values)}."]}
        )
    email = (email or "").strip().lower()
    staff = Staff.objects.select_for_update().filter(email__iexact=email).first()
    created = staff is None
    if created:
        staff = Staff(email=email)
    staff.role = role
    staff.is_superuser = staff.is_superuser and role == StaffRole.ADMIN
    if first_name is not None:
        staff.first_name = first_name
    if last_name is not None:
        staff.last_name = last_name
    try:
        staff.full_clean(exclude=["password"])
    except ValidationError as exc:
        raise ValidationFailed("Validation error", details=django_validation_details(exc)) from None
    validate_new_password(password, principal=staff)
    staff.set_password(password)
    staff.is_active = True
    staff.save()
    audit_record(
        actor=actor,
        action="staff.create" if created else "staff.update",
        object_type="staff",
        object_id=staff.pk,
        changes={"email": staff.email, "role": role},
    )
    return staff, created


@transaction.atomic
def staff_admin_save(*, staff: Staff, actor: Staff, changed_fields: list[str]) -> Staff:
    """Save a staff account edited in the admin site, with its audit entry."""
    created = staff._state.adding
    if staff.is_superuser:
        staff.role = StaffRole.ADMIN
    staff.save()
    audit_record(
        actor=actor,
        action="staff.create" if created else "staff.update",
        object_type="staff",
        object_id=staff.pk,
        changes={"fields": sorted(f for f in changed_fields if not f.startswith("password"))},
    )
    return staff
