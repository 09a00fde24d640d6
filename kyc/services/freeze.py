"""Freezing a wallet under targeted financial sanctions, and lifting it with a second person's reason.

Compliance freezes (a confirmed sanctions match, ``compliance.sanctions``); kyc keeps only the fact, when and who,
so the ledger (``kyc.services.ledger``) and credits can refuse money without knowing why. Lifting a freeze takes a
reason and is never the work of the person who froze: a sanctions decision is always seen by two people.
"""

from django.db import transaction
from django.utils import timezone

from backoffice.choices import WebhookEventType
from backoffice.errors import InvalidTransition, ValidationFailed
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.services import Actor
from backoffice.services.webhooks import webhook_emit
from kyc import events, hooks
from kyc.errors import FourEyesRequired
from kyc.models import PlatformUser
from kyc.services.ledger import lock_user


def _reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("A reason is required", details={"reason": ["A reason is required."]})
    if len(reason) > NOTE_MAX_LENGTH:
        raise ValidationFailed("Validation error", details={"reason": [f"At most {NOTE_MAX_LENGTH} characters."]})
    return reason


@transaction.atomic
def user_freeze(*, user: PlatformUser, actor: Actor, reason: str) -> PlatformUser:
    """Freeze the wallet (idempotent: a frozen wallet stays frozen by whoever froze it first); audited."""
    reason = _reason(reason)
    locked = lock_user(user)
    if not locked.is_frozen:
        locked.is_frozen = True
        locked.frozen_at = timezone.now()
        locked.frozen_by = actor if getattr(actor, "pk", None) else None
        locked.save(update_fields=["is_frozen", "frozen_at", "frozen_by", "updated_at"])
        events.user_frozen(actor=actor, user=locked, reason=reason)
        hooks.user_frozen(user=locked, actor=actor)
        # the payment platform hears of it in this transaction's outbox (never why: that stays with compliance)
        webhook_emit(event_type=WebhookEventType.USER_FROZEN, data={"user_id": str(locked.pk), "is_frozen": True})
    user.is_frozen, user.frozen_at, user.frozen_by_id = locked.is_frozen, locked.frozen_at, locked.frozen_by_id
    return locked


@transaction.atomic
def user_unfreeze(*, user: PlatformUser, actor: Actor, reason: str) -> PlatformUser:
    """Lift a freeze, with the reason: 409 INVALID_TRANSITION when not frozen, 403 FOUR_EYES_REQUIRED for the
    person who froze it; audited, and ``kyc.hooks.user_unfrozen`` tells compliance."""
    reason = _reason(reason)
    locked = lock_user(user)
    if not locked.is_frozen:
        raise InvalidTransition("The user is not frozen")
    if locked.frozen_by_id is not None and locked.frozen_by_id == getattr(actor, "pk", None):
        raise FourEyesRequired("Four-eyes principle: a freeze is lifted by someone other than the person who froze")
    locked.is_frozen = False
    locked.frozen_at = None
    locked.frozen_by = None
    locked.save(update_fields=["is_frozen", "frozen_at", "frozen_by", "updated_at"])
    events.user_unfrozen(actor=actor, user=locked, reason=reason)
    hooks.user_unfrozen(user=locked, actor=actor, reason=reason)
    webhook_emit(event_type=WebhookEventType.USER_UNFROZEN, data={"user_id": str(locked.pk), "is_frozen": False})
    return locked
