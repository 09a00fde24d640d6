"""Staff's two-factor sign-in: set up, confirmed, recovery codes made again, removed, and checked at sign-in.

The devices are django-otp's (``backoffice.auth.mfa``); every change here is audited from ``backoffice.events``,
never with a secret or a code in it. Recovery codes are returned once, to be shown once: django-otp's table holds
only their keyed digests afterwards, and each is deleted by its first use. The app's secret is stored sealed.
"""

from binascii import unhexlify

from django.contrib.auth.hashers import check_password
from django.db import transaction
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken

from backoffice import dual_control, events, sealing
from backoffice.auth import mfa
from backoffice.errors import Conflict, Forbidden, NotFound, ValidationFailed
from backoffice.models import TOTP_KEY_PURPOSE, Staff, StaffTOTPDevice
from backoffice.services.approvals import ApprovalOutcome, approval_request

# The dual-control kind of a second factor reset by administrators (docs/dual-control.md).
RESET_KIND = "staff.mfa_reset"


def _replace_recovery_codes(staff: Staff) -> list[str]:
    StaticDevice.objects.filter(user=staff).delete()
    device = StaticDevice.objects.create(user=staff, name=mfa.RECOVERY_NAME, confirmed=True)
    codes = mfa.new_recovery_codes()
    StaticToken.objects.bulk_create(StaticToken(device=device, token=mfa.recovery_code_digest(code)) for code in codes)
    return codes


@transaction.atomic
def staff_mfa_start(*, staff: Staff, key: str | None = None) -> StaffTOTPDevice:
    """A new, unconfirmed authenticator-app secret for ``staff`` (any earlier unconfirmed one is dropped).

    ``key`` (hex) only for the demo's published secret; otherwise django-otp draws 20 random bytes.
    """
    if mfa.is_enrolled(staff):
        raise Conflict("Two-factor sign-in is already set up; remove it first to set up another app")
    StaffTOTPDevice.objects.filter(user=staff, confirmed=False).delete()
    device = StaffTOTPDevice(user=staff, name=mfa.TOTP_NAME, confirmed=False)
    if key is not None:
        device.key = key
    device.full_clean()  # django-otp's checks of the hex secret, before it is sealed
    device.key = sealing.seal_short(unhexlify(device.key), purpose=TOTP_KEY_PURPOSE)
    device.save()
    return device


# Not atomic as a whole: a wrong code's failure count (django-otp's back-off) must be committed.
def staff_mfa_confirm(*, staff: Staff, code: str) -> list[str]:
    """Confirm the app set up by ``staff_mfa_start`` with its first code; the recovery codes, to show once."""
    device = mfa.totp_device(staff, confirmed=False)
    if device is None:
        raise ValidationFailed("Start the set-up first: there is no new authenticator app to confirm")
    code = mfa.normalise(code)
    if not mfa.check_code(device, code):
        raise mfa.OtpInvalid("The code is wrong or expired: type the code the app shows now")
    with transaction.atomic():
        if mfa.is_enrolled(staff):  # two confirmations raced: the first one set it up
            raise Conflict("Two-factor sign-in is already set up")
        StaffTOTPDevice.objects.filter(pk=device.pk).update(confirmed=True)
        codes = _replace_recovery_codes(staff)
        events.staff_mfa_enrolled(staff=staff, recovery_codes=len(codes))
    return codes


@transaction.atomic
def staff_mfa_recovery_regenerate(*, staff: Staff) -> list[str]:
    """New recovery codes for an enrolled ``staff`` member (the old ones stop working), to show once."""
    if not mfa.is_enrolled(staff):
        raise ValidationFailed("Two-factor sign-in is not set up")
    codes = _replace_recovery_codes(staff)
    events.staff_mfa_recovery_codes_regenerated(staff=staff, recovery_codes=len(codes))
    return codes


def staff_mfa_remove(*, staff: Staff, password: str, code: str) -> None:
    """Remove ``staff``'s second factor; they prove it is them again with their password and a current code."""
    if not mfa.is_enrolled(staff):
        raise ValidationFailed("Two-factor sign-in is not set up")
    if not check_password(password or "", staff.password):
        raise ValidationFailed("The password is wrong", details={"password": ["The password is wrong"]})
    used = mfa.verify(staff, code)
    with transaction.atomic():
        _remove_devices(staff)
        if used == "recovery":
            events.staff_mfa_recovery_code_used(staff=staff, left=0, via="removal")
        events.staff_mfa_removed(staff=staff)


def _remove_devices(staff: Staff) -> None:
    StaffTOTPDevice.objects.filter(user=staff).delete()
    StaticDevice.objects.filter(user=staff).delete()


@transaction.atomic
def staff_mfa_reset_ask(*, staff: Staff, actor, reason: str) -> ApprovalOutcome:
    """An administrator asks to remove another member's second factor (their phone and recovery codes lost): a
    request a second administrator approves, since a reset is how an account is taken over by someone who talked
    one person into it. Their own they remove themselves, with their password and a code."""
    if staff.pk == getattr(actor, "pk", None):
        raise ValidationFailed("Remove your own second factor on your two-factor page, with your password and a code")
    if not mfa.is_enrolled(staff):
        raise ValidationFailed(f"{staff.email} has no second factor set up")
    if not (reason or "").strip():
        raise ValidationFailed("Say why: the approver and the audit log read it", details={"reason": ["Required"]})
    return approval_request(
        kind=RESET_KIND,
        actor=actor,
        summary=f"Reset the two-factor sign-in of {staff.email}",
        payload={"staff_id": str(staff.pk), "email": staff.email},
        reason=reason.strip(),
        target_type="staff",
        target_id=str(staff.pk),
    )


def _apply_reset(*, payload: dict, actor, request) -> Staff:
    staff = Staff.objects.filter(pk=payload["staff_id"]).first()
    if staff is None:
        raise NotFound("Staff member not found")
    if staff.pk == getattr(actor, "pk", None):
        # an administrator whose factor it is would otherwise lift it alone, without the password and code that
        # removing one's own asks for: the approver is a third person
        raise Forbidden("A reset of your own second factor is decided by another administrator")
    if not mfa.is_enrolled(staff):
        raise Conflict(f"{staff.email} has no second factor any more: nothing to reset")
    _remove_devices(staff)
    events.staff_mfa_reset(actor=actor, staff=staff)
    return staff


def register_approval_kind() -> None:
    """The second factor reset's row of the dual-control policy (from ``BackofficeConfig.ready()``)."""
    dual_control.register(
        dual_control.SensitiveAction(
            kind=RESET_KIND,
            label="Two-factor reset",
            request_capability="staff.manage",
            approve_capability="staff.manage",
            apply=_apply_reset,
            describe=lambda request: [f"Two-factor sign-in of {request.payload['email']}: authenticator app → none"],
            announce=lambda staff: f"{staff.email} sets up two-factor sign-in again at their next sign-in.",
            notes="Always two administrators: a reset is how an account is taken over.",
        )
    )


def staff_second_factor(*, staff: Staff, otp: str | None, via: str) -> None:
    """At sign-in, after the right password: nothing for staff without a second factor (and not required to have
    one); otherwise ``otp`` must be a current code or an unspent recovery code (whose use is audited).

    EnrolmentRequired for a required role not enrolled yet; OtpRequired, OtpInvalid, OtpThrottled from the check.
    """
    step = mfa.second_step(staff)
    if step is None:
        return
    if step == mfa.ENROL:
        raise mfa.EnrolmentRequired()
    if mfa.verify(staff, otp) == "recovery":
        events.staff_mfa_recovery_code_used(staff=staff, left=mfa.recovery_codes_left(staff), via=via)


def staff_totp_keys_reseal() -> int:
    """After a ``SECRET_KEY`` rotation (the old one in ``SECRET_KEY_FALLBACKS``): seal the authenticator-app
    secrets again under the current key; how many were. Recovery codes cannot be: only their digests are kept, and
    one made under the old key is found while that key stays a fallback (new codes end the need)."""
    changed = 0
    with transaction.atomic():
        for device in StaffTOTPDevice.objects.select_for_update().only("id", "key"):
            if sealing.is_current_short(device.key, purpose=TOTP_KEY_PURPOSE):
                continue
            device.key = sealing.seal_short(device.bin_key, purpose=TOTP_KEY_PURPOSE)
            StaffTOTPDevice.objects.filter(pk=device.pk).update(key=device.key)
            changed += 1
    return changed
