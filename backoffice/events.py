"""The foundation's audited actions, one typed function each (staff accounts, sign-in lockouts).

The action strings are stored in the audit log and shown by its admin page: they are written here once and
never renamed (old entries keep theirs). Services call these functions, never ``audit_record`` with a string.
"""

from enum import StrEnum

from backoffice.audit import audit_record
from backoffice.models import ApprovalRequest, AuditLog, ServiceKey, Staff, WebhookDelivery, WebhookEndpoint
from backoffice.toolkit import Actor, Diff


class Action(StrEnum):
    STAFF_CREATE = "staff.create"
    STAFF_UPDATE = "staff.update"
    STAFF_PASSWORD_CHANGE = "staff.password_change"
    LOGIN_LOCKED = "login.locked"
    STAFF_MFA_ENROL = "staff.mfa_enrol"
    STAFF_MFA_REMOVE = "staff.mfa_remove"
    STAFF_MFA_RECOVERY_CODES_REGENERATE = "staff.mfa_recovery_codes_regenerate"
    STAFF_MFA_RECOVERY_CODE_USE = "staff.mfa_recovery_code_use"
    STAFF_MFA_RESET = "staff.mfa_reset"
    SERVICE_KEY_CREATE = "service_key.create"
    SERVICE_KEY_ROTATE = "service_key.rotate"
    SERVICE_KEY_REVOKE = "service_key.revoke"
    WEBHOOK_ENDPOINT_CREATE = "webhook_endpoint.create"
    WEBHOOK_ENDPOINT_UPDATE = "webhook_endpoint.update"
    WEBHOOK_ENDPOINT_DELETE = "webhook_endpoint.delete"
    WEBHOOK_ENDPOINT_ROTATE = "webhook_endpoint.rotate_secret"
    WEBHOOK_DELIVERY_RESEND = "webhook_delivery.resend"
    APPROVAL_REQUEST = "approval.request"
    APPROVAL_APPROVE = "approval.approve"
    APPROVAL_REJECT = "approval.reject"
    APPROVAL_APPLY = "approval.apply"
    APPROVAL_EXPIRE = "approval.expire"
    AUDIT_REDACT = "audit.redact"  # backoffice.audit_chain.REDACT_ACTION: the verifier reads this name


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


def staff_mfa_reset(*, actor: Actor, staff: Staff) -> AuditLog:
    """An administrator removed another staff member's second factor, approved by a second one (a lost phone and
    lost recovery codes): the member sets it up again at their next sign-in."""
    return audit_record(
        actor=actor,
        action=Action.STAFF_MFA_RESET,
        object_type=STAFF,
        object_id=staff.pk,
        changes={"second_factor": {"from": "authenticator app", "to": None}},
    )


def _own_second_factor(staff: Staff, action: Action, changes: dict) -> AuditLog:
    # a staff member acts on their own second factor: they are the actor and the object
    return audit_record(actor=staff, action=action, object_type=STAFF, object_id=staff.pk, changes=changes)


def staff_mfa_enrolled(*, staff: Staff, recovery_codes: int) -> AuditLog:
    """A staff member set up two-factor sign-in (an authenticator app confirmed by its first code; never a secret)."""
    changes = {"second_factor": {"from": None, "to": "authenticator app"}, "recovery_codes": recovery_codes}
    return _own_second_factor(staff, Action.STAFF_MFA_ENROL, changes)


def staff_mfa_removed(*, staff: Staff) -> AuditLog:
    """A staff member removed their second factor (after giving their password and a code)."""
    changes = {"second_factor": {"from": "authenticator app", "to": None}}
    return _own_second_factor(staff, Action.STAFF_MFA_REMOVE, changes)


def staff_mfa_recovery_codes_regenerated(*, staff: Staff, recovery_codes: int) -> AuditLog:
    """A staff member made a new set of recovery codes; the old ones stopped working."""
    return _own_second_factor(staff, Action.STAFF_MFA_RECOVERY_CODES_REGENERATE, {"recovery_codes": recovery_codes})


def staff_mfa_recovery_code_used(*, staff: Staff, left: int, via: str) -> AuditLog:
    """A staff member signed in with a recovery code (spent), not the app: worth a look if they did not expect it."""
    return _own_second_factor(staff, Action.STAFF_MFA_RECOVERY_CODE_USE, {"recovery_codes_left": left, "via": via})


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


def audit_redacted(*, actor: Actor, object_type: str, object_id, sequences: list[int]) -> AuditLog:
    """Personal data was blanked in these entries about an object (a purge); the verifier accepts a blanked entry
    only when an entry like this one names its sequence."""
    return audit_record(
        actor=actor,
        action=Action.AUDIT_REDACT,
        object_type=object_type,
        object_id=object_id,
        changes={"sequences": sequences},
    )


WEBHOOK_ENDPOINT = "webhook_endpoint"


def webhook_endpoint_created(*, actor: Actor, endpoint: WebhookEndpoint) -> AuditLog:
    """An endpoint of the payment platform's was added (never its secret)."""
    return audit_record(
        actor=actor,
        action=Action.WEBHOOK_ENDPOINT_CREATE,
        object_type=WEBHOOK_ENDPOINT,
        object_id=endpoint.pk,
        changes={"url": endpoint.url, "events": list(endpoint.events), "description": endpoint.description},
    )


def webhook_endpoint_updated(*, actor: Actor, endpoint: WebhookEndpoint, changes: Diff) -> AuditLog:
    return audit_record(
        actor=actor,
        action=Action.WEBHOOK_ENDPOINT_UPDATE,
        object_type=WEBHOOK_ENDPOINT,
        object_id=endpoint.pk,
        changes=changes,
    )


def webhook_endpoint_deleted(*, actor: Actor, endpoint: WebhookEndpoint) -> AuditLog:
    return audit_record(
        actor=actor,
        action=Action.WEBHOOK_ENDPOINT_DELETE,
        object_type=WEBHOOK_ENDPOINT,
        object_id=endpoint.pk,
        changes={"url": endpoint.url},
    )


def webhook_endpoint_rotated(*, actor: Actor, endpoint: WebhookEndpoint) -> AuditLog:
    """A new secret; the old one is signed with for a day more (never either secret here)."""
    return audit_record(
        actor=actor,
        action=Action.WEBHOOK_ENDPOINT_ROTATE,
        object_type=WEBHOOK_ENDPOINT,
        object_id=endpoint.pk,
        changes={"previous_valid_until": endpoint.previous_secret_expires_at.isoformat()},
    )


def webhook_delivery_resent(*, actor: Actor, delivery: WebhookDelivery) -> AuditLog:
    return audit_record(
        actor=actor,
        action=Action.WEBHOOK_DELIVERY_RESEND,
        object_type=WEBHOOK_ENDPOINT,
        object_id=delivery.endpoint_id,
        changes={"delivery": str(delivery.pk), "event": delivery.event_id, "status": delivery.status},
    )


APPROVAL = "approval_request"


def _approval(request: ApprovalRequest, **extra) -> dict:
    """What every approval entry carries: the kind, the target, both people and the amount judged."""
    return {
        "kind": request.kind,
        "target": f"{request.target_type}:{request.target_id}" if request.target_id else request.target_type,
        "requested_by": str(request.requested_by_id),
        "amount": None if request.amount is None else str(request.amount),
        "severity": request.severity,
        **extra,
    }


def approval_requested(*, actor: Actor, request: ApprovalRequest) -> AuditLog:
    """Someone asked for a sensitive action that needs a second person (the requester is the actor)."""
    return audit_record(
        actor=actor,
        action=Action.APPROVAL_REQUEST,
        object_type=APPROVAL,
        object_id=request.pk,
        changes=_approval(request, reason=request.reason, change=request.payload),
    )


def approval_decided(*, actor: Actor, request: ApprovalRequest) -> AuditLog:
    """The second person approved or rejected the request, with their reason (the decider is the actor)."""
    approved = request.status != "REJECTED"
    return audit_record(
        actor=actor,
        action=Action.APPROVAL_APPROVE if approved else Action.APPROVAL_REJECT,
        object_type=APPROVAL,
        object_id=request.pk,
        changes=_approval(request, decided_by=str(request.decided_by_id), decision_reason=request.decision_reason),
    )


def approval_applied(*, actor: Actor, request: ApprovalRequest) -> AuditLog:
    """The approved change was made (once), on the approver's word."""
    return audit_record(
        actor=actor,
        action=Action.APPROVAL_APPLY,
        object_type=APPROVAL,
        object_id=request.pk,
        changes=_approval(request, decided_by=str(request.decided_by_id), applied_at=request.applied_at.isoformat()),
    )


def approval_expired(*, request: ApprovalRequest) -> AuditLog:
    """Nobody decided in time: the request lapsed and nothing changed (a system act)."""
    return audit_record(
        actor=None,
        action=Action.APPROVAL_EXPIRE,
        object_type=APPROVAL,
        object_id=request.pk,
        changes=_approval(request),
    )
