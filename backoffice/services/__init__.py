"""Writes of the foundation: the audit log, signing in for every kind of principal, staff accounts, and the
toolkit every app's services are written with (``backoffice.toolkit``)."""

from backoffice.audit import audit_batch, audit_entry, audit_record, audit_record_many
from backoffice.services.auth import (
    check_password_or_fail,
    principal_code_resend,
    principal_login,
    principal_phone_verify,
    principal_register,
    validate_new_password,
)
from backoffice.services.staff import (
    LastAdministrator,
    OwnAdminRole,
    staff_admin_save,
    staff_login,
    staff_password_save,
    staff_upsert,
)
from backoffice.toolkit import (
    SYSTEM,
    Actor,
    Diff,
    Move,
    field_diff,
    fsm_move,
    fsm_move_many,
    history_record,
    history_record_many,
    lock_row,
    model_clean,
    model_update,
    plain,
    versioned_update,
)

__all__ = [
    "SYSTEM",
    "Actor",
    "Diff",
    "LastAdministrator",
    "Move",
    "OwnAdminRole",
    "audit_batch",
    "audit_entry",
    "audit_record",
    "audit_record_many",
    "check_password_or_fail",
    "field_diff",
    "fsm_move",
    "fsm_move_many",
    "history_record",
    "history_record_many",
    "lock_row",
    "model_clean",
    "model_update",
    "plain",
    "principal_code_resend",
    "principal_login",
    "principal_phone_verify",
    "principal_register",
    "staff_admin_save",
    "staff_login",
    "staff_password_save",
    "staff_upsert",
    "validate_new_password",
    "versioned_update",
]
