"""The foundation's audited actions, one typed function each (staff accounts, sign-in lockouts).

The action strings are stored in the audit log and shown by its admin page: they are written here once and
never renamed (old entries keep theirs). Services call these functions, never ``audit_record`` with a string.
"""

from enum import StrEnum

from backoffice.models import AuditLog, ServiceKey, Staff
from backoffice.services.audit import audit_record
from backoffice.services.toolkit import Actor, Diff


class Action(StrEnum):
    STAFF_CREATE = "staff.create"
    STAFF_UPDATE = "staff.update"
    STAFF_PASSWORD_CHANGE = "staff.password_change"
    LOGIN_LOCKED = "login.locked"
    SERVICE_KEY_CREATE = "service_key.create"
    SERVICE_KEY_ROTATE = "service_key.rotate"
    SERVICE_KEY_REVOKE = "service_key.revoke"


STAFF = "staff"


def staff_created(*, actor: Actor, staff: Staff, changes: Diff) -> AuditLog:
    """A staff account was created (``changes``: every audited field, "from" None)."""
    return audit_record(actor=actor, action=Action.STAFF_CREATE, object_type=STAFF, object_id=staff.pk, changes=changes)


def staff_updated(*, actor: Actor, staff: Staff, changes: Diff) -> AuditLog:
    """A staff account changed (``changes``: old and new values; a new password only as "changed")."""
    return audit_record(actor=actor, action=Action.STAFF_UPDATE, object_type=STAFF, object_id=staff.pk, changes=changes)


def staff_password_changed(*, actor: Actor, staff: Staff) -> AuditLog:
    """A staff member's password was changed or reset (never the password itself)."""
    return audit_record(
        actor=actor,
        action=Action.STAFF_PASSWORD_CHANGE,
        object_type=STAFF,
        object_id=staff.pk,
        changes={"password": "changed"},
    )


def login_locked(*, kind: str, login: str, principal_id, failures: int, minutes: int, via: str) -> AuditLog:
    """A login name of ``kind`` (staff, user, vendor) was locked after ``failures`` wrong passwords (a system act)."""
    return audit_record(
        actor=None,
        action=Action.LOGIN_LOCKED,
        object_type=kind,
        object_id=principal_id or "",
        changes={"login": (login or "").strip()[:254], "failures": failures, "minutes": minutes, "via": via},
    )


SERVICE_KEY = "service_key"


def service_key_created(*, actor: Actor, service_key: ServiceKey) -> AuditLog:
    """A key was made for one of the payment platform's services (never the secret: its public prefix)."""
    return audit_record(
        actor=actor,
        action=Action.SERVICE_KEY_CREATE,
        object_type=SERVICE_KEY,
        object_id=service_key.pk,
        changes={"name": service_key.name, "prefix": service_key.prefix, "scopes": list(service_key.scopes)},
    )


def service_key_rotated(*, actor: Actor, service_key: ServiceKey, old_prefix: str) -> AuditLog:
    """A live key got a new secret; the old one stopped working."""
    return audit_record(
        actor=actor,
        action=Action.SERVICE_KEY_ROTATE,
        object_type=SERVICE_KEY,
        object_id=service_key.pk,
        changes={"name": service_key.name, "prefix": {"from": old_prefix, "to": service_key.prefix}},
    )


def service_key_revoked(*, actor: Actor, service_key: ServiceKey) -> AuditLog:
    """A key was ended: every later request with it is refused."""
    return audit_record(
        actor=actor,
        action=Action.SERVICE_KEY_REVOKE,
        object_type=SERVICE_KEY,
        object_id=service_key.pk,
        changes={"name": service_key.name, "prefix": service_key.prefix},
    )
