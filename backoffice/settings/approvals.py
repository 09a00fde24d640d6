"""Dual control (docs/dual-control.md): how long a request waits for its second person, and the thresholds of the
sensitive actions that need one only above an amount.

``HELD_RELEASE_FOUR_EYES_ABOVE`` (SZL; unset by default, so the contract's immediate release holds): releasing a
held transaction above it needs a second person. ``RULE_SNOOZE_MAX_DAYS`` caps how long a rule can be snoozed for
a customer. ``SERVICE_KEY_FOUR_EYES`` (off by default, like ``RULE_FOUR_EYES``: a deployment
with one administrator could make no key; recommended in production, since a key records payments as the platform)
sends a service key made in the admin site to a second administrator. ``STAFF_FOUR_EYES`` (off by default for the
same reason; recommended in production) sends access one administrator gives in the admin site (a new account, a
role that can do more, re-activation, a password set for someone else) to a second one
(backoffice.services.staff_access).
"""

from decimal import Decimal

from backoffice.env import env_bool, env_decimal, env_int

APPROVAL_LIFETIME_HOURS = env_int("APPROVAL_LIFETIME_HOURS", 72, minimum=1, maximum=24 * 90)
HELD_RELEASE_FOUR_EYES_ABOVE: Decimal | None = env_decimal("HELD_RELEASE_FOUR_EYES_ABOVE", None, minimum=Decimal("0"))
RULE_SNOOZE_MAX_DAYS = env_int("RULE_SNOOZE_MAX_DAYS", 90, minimum=1, maximum=3650)
SERVICE_KEY_FOUR_EYES = env_bool("SERVICE_KEY_FOUR_EYES", False)
STAFF_FOUR_EYES = env_bool("STAFF_FOUR_EYES", False)
APPROVAL_EXPIRE_EVERY_SECONDS = env_int("APPROVAL_EXPIRE_EVERY_SECONDS", 300, minimum=10)
