"""Service keys of the payment platform: made (shown once), revoked, checked in constant time."""

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from backoffice import dual_control, events
from backoffice.errors import Conflict, NotFound, ValidationFailed
from backoffice.models import SERVICE_KEY_SCOPES, ApprovalRequest, ServiceKey
from backoffice.services.approvals import ApprovalOutcome, approval_request

KEY_PREFIX = "vk"
# last_used_at is a hint for operators, not a log: one write per key per minute at most
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class NewServiceKey:
    """A key just made: ``key`` is the secret, shown once and never stored."""

    service_key: ServiceKey
    key: str


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def split_key(key: str) -> str | None:
    """The prefix (row id) of a well-formed key ``vk_<prefix>_<secret>``, else None."""
    parts = key.split("_", 2)  # the secret may hold "_" itself
    if len(parts) != 3 or parts[0] != KEY_PREFIX or len(parts[1]) != 12 or not parts[2]:
        return None
    return parts[1]


# The dual-control kind of a key made in the admin site under SERVICE_KEY_FOUR_EYES (docs/dual-control.md)
SERVICE_KEY_KIND = "backoffice.service_key"


def _checked(name: str, scopes: list[str]) -> tuple[str, list[str]]:
    """The name (1 to 100 characters, not taken) and at least one known scope: never every scope by default."""
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise ValidationFailed("Validation error", details={"name": ["A name of 1 to 100 characters is required."]})
    scopes = list(dict.fromkeys(scopes or []))
    if not scopes or any(s not in SERVICE_KEY_SCOPES for s in scopes):
        raise ValidationFailed(
            "Validation error", details={"scopes": [f"Choose at least one of {list(SERVICE_KEY_SCOPES)}."]}
        )
    if ServiceKey.objects.filter(name=name).exists():
        raise Conflict("A service key with this name already exists")
    return name, scopes


@transaction.atomic
def service_key_create(*, name: str, scopes: list[str] | None = None, actor=None) -> NewServiceKey:
    """Make a key for ``name`` (unique) opening ``scopes``; the returned ``key`` is the only copy of the secret.

    ``None`` is the contract's key of ``create_service_key`` (the intake and its dry run), for code on the server;
    a person in the admin site names at least one scope (``service_key_ask``), and an empty list is refused."""
    name, scopes = _checked(name, list(SERVICE_KEY_SCOPES) if scopes is None else scopes)
    prefix = secrets.token_hex(6)
    key = f"{KEY_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
    row = ServiceKey.objects.create(
        name=name, prefix=prefix, key_hash=key_hash(key), scopes=scopes, created_by=actor if actor else None
    )
    events.service_key_created(actor=actor, service_key=row)
    return NewServiceKey(service_key=row, key=key)


@transaction.atomic
def service_key_ask(*, name: str, scopes: list[str], actor, reason: str = "") -> ApprovalOutcome:
    """A key asked for in the admin site: made at once (``outcome.result``, a ``NewServiceKey``), or with
    ``SERVICE_KEY_FOUR_EYES`` a request a second administrator approves (the key is made, and its secret shown to
    that person once, then)."""
    name, scopes = _checked(name, scopes)
    return approval_request(
        kind=SERVICE_KEY_KIND,
        actor=actor,
        summary=f"Service key {name!r} opening {', '.join(scopes)}",
        payload={"name": name, "scopes": scopes},
        reason=reason,
        target_type="service_key",
        target_id=f"name:{name}",
    )


def _apply(*, payload: dict, actor, request: ApprovalRequest | None) -> NewServiceKey:
    return service_key_create(name=payload["name"], scopes=payload["scopes"], actor=actor)


def register_approval_kind() -> None:
    """The foundation's own row of the dual-control policy (from ``BackofficeConfig.ready()``)."""
    dual_control.register(
        dual_control.SensitiveAction(
            kind=SERVICE_KEY_KIND,
            label="Service key",
            request_capability="staff.manage",
            approve_capability="staff.manage",
            switch_setting="SERVICE_KEY_FOUR_EYES",
            apply=_apply,
            describe=lambda request: [
                f"New service key {request.payload['name']!r}: opens {', '.join(request.payload['scopes'])}"
            ],
            announce=lambda made: f"Copy the key now, it is not shown again: {made.key}",
            notes="A key records payments as the platform. The key's secret is shown once, to the approver.",
        )
    )


@transaction.atomic
def service_key_rotate(*, service_key: ServiceKey, actor=None) -> NewServiceKey:
    """A new secret for a live key (same name and scopes); the old secret stops working at once."""
    row = ServiceKey.objects.select_for_update().get(pk=service_key.pk)
    if row.revoked_at is not None:
        raise Conflict("This service key is revoked")
    prefix = secrets.token_hex(6)
    key = f"{KEY_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
    old_prefix = row.prefix
    row.prefix, row.key_hash, row.last_used_at = prefix, key_hash(key), None
    row.save(update_fields=["prefix", "key_hash", "last_used_at"])
    events.service_key_rotated(actor=actor, service_key=row, old_prefix=old_prefix)
    return NewServiceKey(service_key=row, key=key)


@transaction.atomic
def service_key_revoke(*, service_key: ServiceKey | None = None, name: str | None = None, actor=None) -> ServiceKey:
    """End a key at once: every later request with it is 401. Revoking twice is 409."""
    qs = ServiceKey.objects.select_for_update()
    row = qs.filter(pk=service_key.pk).first() if service_key is not None else qs.filter(name=name).first()
    if row is None:
        raise NotFound("Service key not found")
    if row.revoked_at is not None:
        raise Conflict("This service key is already revoked")
    row.revoked_at = timezone.now()
    row.save(update_fields=["revoked_at"])
    events.service_key_revoked(actor=actor, service_key=row)
    return row


def service_key_check(key: str) -> ServiceKey | None:
    """The live key row for ``key``, or None (unknown, malformed, revoked). Constant-time on the hash."""
    prefix = split_key(key or "")
    if prefix is None:
        return None
    row = next(iter(ServiceKey.objects.filter(prefix=prefix)[:1]), None)  # a unique prefix: no ORDER BY
    # compare even when no row matched, so timing does not tell a known prefix from an unknown one
    expected = row.key_hash if row is not None else "0" * 64
    if not hmac.compare_digest(expected.encode(), key_hash(key).encode()) or row is None or row.is_revoked:
        return None
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        ServiceKey.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return row
