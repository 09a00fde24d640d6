"""Writes on staff accounts: create or update from the command line, save from the admin site, sign in.

Every write records the old and new value of what changed (a password only as "changed"), and two
safety nets hold whoever asks (the admin site, ``create_staff``, the demo data):

* the last active administrator cannot be demoted or deactivated (nor deleted: staff are deactivated,
  never deleted; the admin site offers no delete);
* nobody takes away their own admin role or deactivates themselves.

Active administrators' rows are locked (in id order) before the check, so two admins demoting each
other at the same moment queue: the second finds itself the last and is refused.
"""

from django.db import transaction

from backoffice import events
from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.errors import Conflict, Forbidden, ValidationFailed
from backoffice.models import Staff
from backoffice.services.auth import principal_login, validate_new_password
from backoffice.toolkit import Actor, Diff, field_diff, model_clean

# What an audit entry shows of a staff account (old and new values); the password only as "changed".
AUDITED_FIELDS = ("email", "first_name", "last_name", "role", "is_active", "is_superuser")


class LastAdministrator(Conflict):
    code = "LAST_ADMIN"
    default_message = "The last active administrator cannot be demoted, deactivated or deleted"


class OwnAdminRole(Forbidden):
    code = "OWN_ADMIN_ROLE"
    default_message = "You cannot take away your own admin role or deactivate yourself"


def staff_login(*, email: str, password: str) -> tuple[Staff, tokens.TokenPair]:
    return principal_login(kind=tokens.STAFF, login=email, password=password)


def _is_active_admin(role: str, is_active: bool) -> bool:
    return is_active and role == StaffRole.ADMIN


def _snapshot(staff: Staff) -> dict:
    return {name: getattr(staff, name) for name in AUDITED_FIELDS}


def staff_changes(before: dict | None, staff: Staff, *, password_changed: bool = False) -> Diff:
    """{field: {"from": old, "to": new}} for what differs (everything "from" None for a new account)."""
    changes = field_diff(before, _snapshot(staff))
    if password_changed:
        changes["password"] = "changed"
    return changes


def lock_active_admins() -> set:
    """Lock the active administrators' rows (in id order, so concurrent writers queue instead of deadlocking).

    Every staff write takes these locks before it reads the row it changes.
    """
    return set(
        Staff.objects.select_for_update()
        .filter(role=StaffRole.ADMIN, is_active=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def check_admin_safety_nets(*, staff: Staff, before: dict | None, actor: Actor, admins: set) -> None:
    """Refuse a change that takes away the last active admin, or the actor's own admin role or access.

    ``before`` is the stored state (``_snapshot``), None for a new account; ``admins`` what
    ``lock_active_admins`` returned in the same transaction.
    """
    if before is None or not _is_active_admin(before["role"], before["is_active"]):
        return
    if _is_active_admin(staff.role, staff.is_active):
        return
    if actor is not None and actor.pk == staff.pk:
        raise OwnAdminRole()
    if not admins - {staff.pk}:
        raise LastAdministrator()


def _stored_state(staff: Staff) -> dict | None:
    if staff._state.adding or staff.pk is None:
        return None
    stored = Staff.objects.select_for_update().filter(pk=staff.pk).first()
    return None if stored is None else _snapshot(stored)


@transaction.atomic
def staff_upsert(
    *,
    email: str,
    password: str,
    role: str,
    first_name: str | None = None,
    last_name: str | None = None,
    actor: Actor = None,
) -> tuple[Staff, bool]:
    """Create a staff account, or update the one with this e-mail (idempotent: the same call changes nothing)."""
    if role not in StaffRole.values:
        raise ValidationFailed(
            f"Unknown role {role!r}", details={"role": [f"Must be one of {', '.join(StaffRole.values)}."]}
        )
    email = (email or "").strip().lower()
    admins = lock_active_admins()
    staff = Staff.objects.select_for_update().filter(email__iexact=email).first()
    created = staff is None
    before = None if created else _snapshot(staff)
    if created:
        staff = Staff(email=email)
    staff.role = role
    staff.is_superuser = staff.is_superuser and role == StaffRole.ADMIN
    if first_name is not None:
        staff.first_name = first_name
    if last_name is not None:
        staff.last_name = last_name
    staff.is_active = True
    model_clean(staff, exclude=["password"])
    check_admin_safety_nets(staff=staff, before=before, actor=actor, admins=admins)
    validate_new_password(password, principal=staff)
    # the same password again is no change: re-running the command must not end the account's sessions
    password_changed = created or not staff.check_password(password)
    if password_changed:
        staff.set_password(password)
    changes = staff_changes(before, staff, password_changed=password_changed and not created)
    if not created and not changes:
        return staff, False
    staff.save()
    (events.staff_created if created else events.staff_updated)(actor=actor, staff=staff, changes=changes)
    return staff, created


@transaction.atomic
def staff_admin_save(*, staff: Staff, actor: Staff, changed_fields: list[str] | None = None) -> Staff:
    """Save a staff account edited in the admin site, with its audit entry of old and new values.

    ``staff`` carries the edits (not yet saved); what it changes is found against the stored row.
    ``changed_fields`` is kept for callers that pass the form's list; the comparison decides.
    """
    created = staff._state.adding
    if staff.is_superuser:
        staff.role = StaffRole.ADMIN
    admins = lock_active_admins()
    before = _stored_state(staff)
    check_admin_safety_nets(staff=staff, before=before, actor=actor, admins=admins)
    changes = staff_changes(before, staff, password_changed=not created and "password" in (changed_fields or ()))
    staff.save()
    if created or changes:
        (events.staff_created if created else events.staff_updated)(actor=actor, staff=staff, changes=changes)
    return staff


@transaction.atomic
def staff_password_save(*, staff: Staff, actor: Actor) -> Staff:
    """Store a password already set on ``staff`` (``set_password``) and audit it; every session ends."""
    staff.save()
    events.staff_password_changed(actor=actor, staff=staff)
    return staff
