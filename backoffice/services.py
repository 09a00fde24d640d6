"""Writes of the administration app: the audit log, staff accounts and staff sign-in."""

import logging
from typing import Any

from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from backoffice import tokens
from backoffice.choices import StaffRole
from backoffice.errors import DomainError, ValidationFailed, django_validation_details
from backoffice.models import AuditLog, Staff
from backoffice.request_context import current_ip

logger = logging.getLogger("backoffice.audit")

# Spent on unknown accounts so that "no such account" takes as long as "wrong password".
_DUMMY_PASSWORD_HASH = make_password("timing-equaliser-not-a-password")


class InvalidCredentials(DomainError):
    status = 401
    code = "INVALID_CREDENTIALS"
    default_message = "Invalid credentials"


def audit_record(
    *,
    actor: Staff | None,
    action: str,
    object_type: str,
    object_id: Any = "",
    changes: dict | None = None,
    ip_address: str | None = None,
) -> AuditLog:
    """Append one entry to the audit log. Every staff write calls this inside its transaction."""
    return AuditLog.objects.create(
        actor=actor if isinstance(actor, Staff) else None,
        actor_email=getattr(actor, "email", "") or "",
        action=action,
        object_type=object_type,
        object_id=str(object_id or ""),
        changes=changes or {},
        ip_address=ip_address or current_ip(),
    )


def validate_new_password(password: str, *, principal=None, field: str = "password") -> None:
    """Django's password validators; their reasons become field details of a 400."""
    try:
        validate_password(password or "", user=principal)
    except ValidationError as exc:
        raise ValidationFailed("Validation error", details={field: list(exc.messages)}) from None


def check_password_or_fail(principal, password: str) -> None:
    """Raise InvalidCredentials unless ``principal`` exists and ``password`` is its password."""
    from django.contrib.auth.hashers import check_password

    if principal is None:
        check_password(password, _DUMMY_PASSWORD_HASH)
        raise InvalidCredentials()
    if not check_password(password, principal.password):
        raise InvalidCredentials()


def staff_login(*, email: str, password: str) -> tuple[Staff, tokens.TokenPair]:
    staff = Staff.objects.filter(email__iexact=(email or "").strip(), is_active=True).first()
    check_password_or_fail(staff, password)
    Staff.objects.filter(pk=staff.pk).update(last_login=timezone.now())
    return staff, tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk)


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
