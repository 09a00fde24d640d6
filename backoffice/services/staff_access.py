"""Access one administrator grants another person waits for a second administrator (``STAFF_FOUR_EYES``).

Without it one administrator could make a second account alone (or raise a colleague's role, or set a colleague's
password and sign in as them) and approve with it every kind that needs "another administrator" or "another
MLRO": dual control would need only one person. So, in the admin site, with ``STAFF_FOUR_EYES`` on:

* a new account is saved inactive, and its activation is a request;
* raising what an account may do (its role, the superuser flag, re-activating it) is a request; the rest of the
  same edit (names, e-mail) and taking access away (deactivating, a lower role) apply at once;
* a password set for someone else is saved, the account is deactivated (every session ends with the new
  password anyway), and its re-activation is a request, so the approver can check with the person first.

The member whose access it is never approves it. ``create_staff`` on the server stays immediate: it is the
operator's way in, and the only way to make the second administrator of a new deployment.
"""

from dataclasses import dataclass

from django.db import transaction

from backoffice import dual_control, roles
from backoffice.choices import StaffRole
from backoffice.errors import Conflict, Forbidden, NotFound
from backoffice.models import ApprovalRequest, Staff
from backoffice.services.approvals import approval_needed, approval_request
from backoffice.services.staff import staff_admin_save, staff_password_save
from backoffice.toolkit import Actor

ACCESS_KIND = "staff.access"

# the fields whose change can give an account more than it had; ``_raises`` says which direction does
GRANT_FIELDS = ("role", "is_superuser", "is_active")


@dataclass(frozen=True)
class StaffSaved:
    """What an admin-site save did: the account as stored now, and the request that waits for a second
    administrator (None when everything applied at once)."""

    staff: Staff
    request: ApprovalRequest | None = None


def _raises(field: str, old, new) -> bool:
    if old == new:
        return False
    if field == "role":
        # the roles are not a ladder (finance approves credits, which a compliance officer may not): any move that
        # brings a capability the old role lacked is a grant
        return not roles.CAPABILITIES.get(new, frozenset()) <= roles.CAPABILITIES.get(old, frozenset())
    return bool(new)  # is_superuser or is_active switched on


def _grants(before: dict | None, staff: Staff) -> dict:
    """{field: {"from": old, "to": new}} of what this edit would raise; every access field for a new account."""
    if before is None:
        return {"role": {"from": None, "to": staff.role}, "is_active": {"from": False, "to": True}} | (
            {"is_superuser": {"from": False, "to": True}} if staff.is_superuser else {}
        )
    return {
        field: {"from": before[field], "to": getattr(staff, field)}
        for field in GRANT_FIELDS
        if _raises(field, before[field], getattr(staff, field))
    }


def _stored(staff: Staff) -> dict | None:
    if staff._state.adding or staff.pk is None:
        return None
    return Staff.objects.select_for_update().filter(pk=staff.pk).values(*GRANT_FIELDS).first()


def _ask(*, staff: Staff, actor: Actor, grants: dict, why: str) -> ApprovalRequest:
    words = {"created": "Activate the new account of", "edited": "Raise the access of", "password": "Re-activate"}
    outcome = approval_request(
        kind=ACCESS_KIND,
        actor=actor,
        summary=f"{words[why]} {staff.email}",
        payload={"staff_id": str(staff.pk), "email": staff.email, "why": why, "grants": grants},
        target_type="staff",
        target_id=str(staff.pk),
    )
    return outcome.request


@transaction.atomic
def staff_admin_submit(*, staff: Staff, actor: Staff, changed_fields: list[str] | None = None) -> StaffSaved:
    """Save an account edited or added in the admin site; what it raises waits for a second administrator when
    ``STAFF_FOUR_EYES`` is on (see the module's text), the rest applies at once through ``staff_admin_save``."""
    if staff.is_superuser:
        staff.role = StaffRole.ADMIN
    if not approval_needed(kind=ACCESS_KIND):
        return StaffSaved(staff_admin_save(staff=staff, actor=actor, changed_fields=changed_fields))
    before = _stored(staff)
    grants = _grants(before, staff)
    if not grants:
        return StaffSaved(staff_admin_save(staff=staff, actor=actor, changed_fields=changed_fields))
    # what is raised keeps its stored value until approved; the rest of the edit is saved now
    if before is None:
        staff.is_active, staff.is_superuser = False, False
    else:
        for field in grants:
            setattr(staff, field, before[field])
    saved = staff_admin_save(staff=staff, actor=actor, changed_fields=changed_fields)
    why = "created" if before is None else "edited"
    return StaffSaved(saved, _ask(staff=saved, actor=actor, grants=grants, why=why))


@transaction.atomic
def staff_password_submit(*, staff: Staff, actor: Actor) -> StaffSaved:
    """Store a password already set on ``staff`` (``set_password``). Set by someone else with ``STAFF_FOUR_EYES``
    on, the account is deactivated until a second administrator approves its re-activation: whoever set the
    password could otherwise sign in as that person."""
    someone_else = actor is not None and getattr(actor, "pk", None) != staff.pk
    if not (someone_else and staff.is_active and approval_needed(kind=ACCESS_KIND)):
        return StaffSaved(staff_password_save(staff=staff, actor=actor))
    staff_password_save(staff=staff, actor=actor)
    staff.is_active = False
    saved = staff_admin_save(staff=staff, actor=actor, changed_fields=["is_active"])
    grants = {"is_active": {"from": False, "to": True}}
    return StaffSaved(saved, _ask(staff=saved, actor=actor, grants=grants, why="password"))


def _apply(*, payload: dict, actor, request) -> Staff:
    staff = Staff.objects.select_for_update().filter(pk=payload["staff_id"]).first()
    if staff is None:
        raise NotFound("Staff member not found")
    if staff.pk == getattr(actor, "pk", None):
        raise Forbidden("Access to your own account is decided by another administrator")
    grants = payload["grants"]
    # the account as it was when asked: what happened to it since (another approval, a direct edit) wins
    moved = {field for field, change in grants.items() if change["from"] not in (None, getattr(staff, field))}
    if moved:
        raise Conflict(f"{staff.email} has changed since this was asked ({', '.join(sorted(moved))}): ask again")
    for field, change in grants.items():
        setattr(staff, field, change["to"])
    return staff_admin_save(staff=staff, actor=actor, changed_fields=list(grants))


def _describe(request) -> list[str]:
    payload = request.payload
    lines = [
        f"Staff {payload['email']}: {field.replace('_', ' ')}: "
        + (_word(change["to"]) if change["from"] is None else f"{_word(change['from'])} → {_word(change['to'])}")
        for field, change in payload["grants"].items()
    ]
    if payload.get("why") == "created":
        lines.insert(0, f"A new staff account, {payload['email']}, made by {request.requested_by}")
    if payload.get("why") == "password":
        lines.append(f"Its password was set by {request.requested_by}: check with the person before approving")
    return lines


def _word(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def register_approval_kind() -> None:
    """Staff access's row of the dual-control policy (from ``BackofficeConfig.ready()``)."""
    dual_control.register(
        dual_control.SensitiveAction(
            kind=ACCESS_KIND,
            label="Staff access",
            request_capability="staff.manage",
            approve_capability="staff.manage",
            switch_setting="STAFF_FOUR_EYES",
            apply=_apply,
            describe=_describe,
            announce=lambda staff: f"{staff.email} now has the access asked for.",
            notes="A second account of one administrator's would let them approve alone.",
        )
    )
