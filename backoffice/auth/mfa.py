"""Staff's second factor at sign-in, kept by django-otp: an authenticator app (TOTP) and single-use recovery codes.

A staff member is *enrolled* once a TOTP device of theirs is confirmed (a first code from the app was accepted);
the recovery codes are a django-otp static device beside it, each code spent by its first use. Enrolled staff
give a code at every sign-in (the API's ``otp`` field, the admin site's second step). A role named in
``STAFF_MFA_REQUIRED_ROLES`` cannot sign in without one: the API refuses it until it has enrolled, the admin
site sends it to enrol after the password.

Codes are checked with the device row locked, so one code is accepted once even when two sign-ins race
(django-otp keeps the last accepted time step, and deletes a spent recovery code). After a wrong code django-otp
backs off per device (``OTP_TOTP_THROTTLE_FACTOR``); the callers count wrong codes towards the account's lockout.

Neither secret is stored as it is: the app's is sealed (``backoffice.models.StaffTOTPDevice``), and a recovery code
is kept as its keyed digest (``RECOVERY_CODE_PURPOSE``), which is all a code is ever compared with.
"""

import logging
from base64 import b32encode

import segno
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_otp.models import VerifyNotAllowed
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken

from backoffice import sealing
from backoffice.errors import DomainError
from backoffice.models import Staff, StaffTOTPDevice

logger = logging.getLogger("backoffice.auth")

TOTP_NAME = "Authenticator app"
RECOVERY_NAME = "Recovery codes"
RECOVERY_CODE_COUNT = 10
# what a recovery code's stored digest is keyed for (backoffice.sealing.digests); 16 characters, the column's size
RECOVERY_CODE_PURPOSE = "recovery-code"
QR_TITLE = "QR code to scan with an authenticator app"

# What a sign-in still needs after the password.
CODE = "code"  # a code from the app or a recovery code
ENROL = "enrol"  # the role requires a second factor the member has not set up


class OtpRequired(DomainError):
    status = 401
    code = "OTP_REQUIRED"
    default_message = "Two-factor sign-in is on for this account: send the code from the authenticator app as otp"


class OtpInvalid(DomainError):
    status = 401
    code = "OTP_INVALID"
    default_message = "The code is wrong, expired or already used"


class OtpThrottled(DomainError):
    status = 429
    code = "OTP_THROTTLED"

    def __init__(self, seconds: int):
        super().__init__(f"Too soon after a wrong code: wait {seconds} seconds, then try again")
        self.headers = {"Retry-After": str(seconds)}


class EnrolmentRequired(DomainError):
    status = 403
    code = "MFA_ENROLMENT_REQUIRED"
    default_message = (
        "Your role must sign in with a second factor: sign in to the admin site once to set up an authenticator app"
    )


def is_required(staff: Staff) -> bool:
    return staff.role in settings.STAFF_MFA_REQUIRED_ROLES


def totp_device(staff: Staff, *, confirmed: bool = True) -> StaffTOTPDevice | None:
    return StaffTOTPDevice.objects.devices_for_user(staff, confirmed=confirmed).order_by("id").first()


def recovery_device(staff: Staff) -> StaticDevice | None:
    return StaticDevice.objects.devices_for_user(staff, confirmed=True).order_by("id").first()


def is_enrolled(staff: Staff) -> bool:
    return StaffTOTPDevice.objects.devices_for_user(staff, confirmed=True).exists()


def second_step(staff: Staff) -> str | None:
    """What a sign-in of ``staff`` needs after the right password: ``CODE``, ``ENROL`` or nothing (None)."""
    if is_enrolled(staff):
        return CODE
    if is_required(staff):
        return ENROL
    return None


def recovery_codes_left(staff: Staff) -> int:
    return StaticToken.objects.filter(device__user=staff, device__confirmed=True).count()


def normalise(code: str | None) -> str:
    # people copy codes with spaces ("123 456") and recovery codes as printed ("abcd-efgh")
    return "".join((code or "").split()).replace("-", "").lower()


def _is_app_code(code: str) -> bool:
    return len(code) == 6 and code.isdigit()


def check_code(device, code: str) -> bool:
    """Spend ``code`` on ``device`` (row locked: a code is accepted once); OtpThrottled while django-otp backs off.

    The device's failure count is committed even though the caller goes on to refuse the sign-in.
    """
    with transaction.atomic():
        device = type(device).objects.select_for_update().get(pk=device.pk)
        allowed, why = device.verify_is_allowed()
        if allowed:
            try:
                accepted = device.verify_token(_as_stored(device, code))
            except sealing.Unsealable as error:
                # a secret no configured key opens (SECRET_KEY changed without its fallback, or a value written into
                # the column by someone without the key): no code can match it, and the operator must hear of it
                logger.error("the authenticator app of staff %s cannot be opened: %s", device.user_id, error)
                accepted = False
    if not allowed:
        if why and why.get("reason") == VerifyNotAllowed.N_FAILED_ATTEMPTS and why.get("locked_until"):
            seconds = max(1, int((why["locked_until"] - timezone.now()).total_seconds() + 0.999))
        else:
            seconds = 1
        raise OtpThrottled(seconds)
    return accepted


def recovery_code_digest(code: str) -> str:
    """What is stored for a recovery code: its digest under the current key."""
    return sealing.digests(code, purpose=RECOVERY_CODE_PURPOSE)[0]


def _as_stored(device, code: str) -> str:
    """``code`` as ``device`` stores it: a recovery code's digest, the one this device holds when a code made before
    a key rotation is still valid under a fallback (the current one otherwise, which then fails as a wrong code)."""
    if not isinstance(device, StaticDevice):
        return code
    candidates = sealing.digests(code, purpose=RECOVERY_CODE_PURPOSE)
    held = set(StaticToken.objects.filter(device=device, token__in=candidates).values_list("token", flat=True))
    return next((candidate for candidate in candidates if candidate in held), candidates[0])


def verify(staff: Staff, code: str | None) -> str:
    """Accept ``code`` for an enrolled ``staff`` member: "totp" or "recovery" (which one it was), else raise.

    OtpRequired without a code, OtpInvalid for a wrong, spent or expired one, OtpThrottled during the back-off.
    """
    code = normalise(code)
    if not code:
        raise OtpRequired()
    if _is_app_code(code):
        device, kind = totp_device(staff), "totp"
    else:
        device, kind = recovery_device(staff), "recovery"
    if device is None or not check_code(device, code):
        raise OtpInvalid()
    return kind


def new_recovery_codes() -> list[str]:
    return [StaticToken.random_token() for _ in range(RECOVERY_CODE_COUNT)]


def shown_code(code: str) -> str:
    """A recovery code as shown to people: two groups of four (typed back with or without the dash)."""
    return f"{code[:4]}-{code[4:]}"


def base32_secret(device: StaffTOTPDevice) -> str:
    """The secret as authenticator apps take it when typed in by hand."""
    return b32encode(device.bin_key).decode()


def qr_svg(uri: str) -> str:
    """The QR code of an otpauth:// URI as inline SVG that scales (a viewBox, no fixed size), with the quiet zone
    scanners need and a name for screen readers."""
    svg = segno.make(uri, error="m").svg_inline(
        scale=5, border=4, omitsize=True, title=QR_TITLE, dark="#111827", light="#ffffff"
    )
    return svg.replace("<svg ", f'<svg role="img" aria-label="{QR_TITLE}" ', 1)
