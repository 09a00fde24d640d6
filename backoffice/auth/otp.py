"""One-time codes for phone verification, and the pluggable backends that deliver them.

Backends follow Django's e-mail backends: ``OTP_BACKEND`` names one of ``backends``:
``console`` (logs the code), ``file`` (appends ``PHONE CODE`` lines to
``OTP_FILE_PATH``) and ``locmem`` (keeps messages in ``outbox`` for tests).
An SMS or WhatsApp gateway is one more class with ``send``.
"""

import hashlib
import hmac
import logging
import secrets
import threading
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backoffice.choices import OtpPurpose
from backoffice.errors import DomainError
from backoffice.models import OneTimeCode
from backoffice.registry import ProviderRegistry

logger = logging.getLogger("backoffice.otp")

backends = ProviderRegistry(
    "OTP_BACKEND",
    {
        "console": "backoffice.auth.otp.ConsoleBackend",
        "file": "backoffice.auth.otp.FileBackend",
        "locmem": "backoffice.auth.otp.LocmemBackend",
    },
)


class OtpDeliveryError(Exception):
    def __init__(self, message: str, *, permanent: bool):
        super().__init__(message)
        self.permanent = permanent


class ConsoleBackend:
    def send(self, phone_number: str, code: str) -> None:
        logger.warning("One-time code for %s: %s", phone_number, code)


class FileBackend:
    _lock = threading.Lock()

    def send(self, phone_number: str, code: str) -> None:
        try:
            with self._lock, open(settings.OTP_FILE_PATH, "a", encoding="utf-8") as handle:
                handle.write(f"{phone_number} {code}\n")
        except OSError as exc:
            raise OtpDeliveryError(f"cannot write {settings.OTP_FILE_PATH}: {exc}", permanent=False) from exc


outbox: list[tuple[str, str]] = []


class LocmemBackend:
    def send(self, phone_number: str, code: str) -> None:
        outbox.append((phone_number, code))


def get_backend():
    return backends.get()


def _hash(phone_number: str, code: str) -> str:
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"{phone_number}:{code}".encode(), hashlib.sha256).hexdigest()


class InvalidCode(DomainError):
    status = 400
    code = "INVALID_OTP"
    default_message = "The code is invalid or has expired"


@transaction.atomic
def otp_issue(*, phone_number: str, purpose: str = OtpPurpose.PHONE_VERIFICATION) -> None:
    """Create a fresh code (retiring earlier ones) and send it after the commit."""
    now = timezone.now()
    OneTimeCode.objects.filter(phone_number=phone_number, purpose=purpose, consumed_at__isnull=True).update(
        consumed_at=now
    )
    code = f"{secrets.randbelow(1_000_000):06d}"
    OneTimeCode.objects.create(
        phone_number=phone_number,
        purpose=purpose,
        code_hash=_hash(phone_number, code),
        expires_at=now + timedelta(minutes=settings.OTP_TTL_MINUTES),
    )
    transaction.on_commit(lambda: get_backend().send(phone_number, code))


def otp_check(*, phone_number: str, code: str, purpose: str = OtpPurpose.PHONE_VERIFICATION) -> None:
    """Spend a code or raise InvalidCode. Wrong tries count even though the request fails."""
    with transaction.atomic():
        record = (
            OneTimeCode.objects.select_for_update()
            .filter(phone_number=phone_number, purpose=purpose, consumed_at__isnull=True)
            .order_by("-created_at", "-id")
            .first()
        )
        if record is None:
            raise InvalidCode()
        now = timezone.now()
        if record.expires_at <= now:
            record.consumed_at = now
            record.save(update_fields=["consumed_at"])
            raise InvalidCode("The code has expired; ask for a new one", code="OTP_EXPIRED")
        if hmac.compare_digest(record.code_hash, _hash(phone_number, str(code).strip())):
            record.consumed_at = now
            record.save(update_fields=["consumed_at"])
            return
        record.attempts += 1
        if record.attempts >= settings.OTP_MAX_ATTEMPTS:
            record.consumed_at = now
        record.save(update_fields=["attempts", "consumed_at"])
    # raised outside the atomic block so the attempt count is committed
    if record.consumed_at:
        raise InvalidCode("Too many wrong codes; ask for a new one", code="OTP_ATTEMPTS_EXCEEDED")
    raise InvalidCode()
