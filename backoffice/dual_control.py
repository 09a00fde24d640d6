"""The declared policy of dual control: every sensitive action, who may ask, who may approve, when a second
person is needed, how long a request lives, and the function that applies it (docs/dual-control.md).

The foundation owns the table; each app registers its own actions from its ``AppConfig.ready()`` with
``register(SensitiveAction(...))``, so the foundation never imports the apps and one queue
("waiting for my approval") serves every kind. The services in ``backoffice.services.approvals`` read only
this table to decide whether an action becomes a request and who may decide it.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings

from backoffice import roles
from backoffice.choices import StaffRole


@dataclass(frozen=True)
class SensitiveAction:
    """One row of the policy.

    - ``kind``: the stored name (``"kyc.credit"``), never renamed; ``label``: how people read it.
    - ``request_capability`` / ``approve_capability``: the capabilities (``backoffice.roles``) of who may ask and
      who may decide; the decider is never the one who asked.
    - When a second person is needed: always, unless ``switch_setting`` names a boolean setting that is off,
      ``above_setting`` names an SZL setting (unset: never; otherwise only an amount above it), or
      ``severities`` lists the severities that need one.
    - ``lifetime``: how long a request waits before it expires (``None``: ``APPROVAL_LIFETIME_HOURS``;
      ``timedelta(0)``: never expires, for a flow whose own record keeps waiting, the credit request).
    - ``apply(request=, actor=)``: makes the change of an approved request (``actor`` the approver), inside the
      approval's transaction; a DomainError it raises refuses the approval and nothing is kept.
    - ``on_reject(request=, actor=)`` / ``on_expire(request=)``: for a flow that keeps its own record in step.
    - ``describe(request)``: the change in words, one line each ("Rule AML-CFT-001: active: yes → no");
      ``context(request)``: what else the approver should see (a wallet's recent credits);
      ``announce(result)``: what the approver is told once about what apply returned (a new key's secret).
    """

    kind: str
    label: str
    request_capability: str
    approve_capability: str
    apply: Callable[..., Any]
    describe: Callable[[Any], list[str]]
    switch_setting: str | None = None
    above_setting: str | None = None
    severities: frozenset[str] | None = None
    lifetime: timedelta | None = None
    on_reject: Callable[..., Any] | None = None
    on_expire: Callable[..., Any] | None = None
    context: Callable[[Any], list[str]] | None = None
    announce: Callable[[Any], str] | None = None
    notes: str = field(default="")

    def threshold(self) -> Decimal | None:
        return getattr(settings, self.above_setting, None) if self.above_setting else None

    def is_switched_on(self) -> bool:
        return bool(getattr(settings, self.switch_setting)) if self.switch_setting else True

    def needs_second_person(self, *, amount: Decimal | None = None, severity: str | None = None) -> bool:
        """Whether this action, of this amount (SZL) or severity, waits for a second person."""
        if not self.is_switched_on():
            return False
        if self.above_setting is not None:
            limit = self.threshold()
            if limit is None or amount is None or amount <= limit:
                return False
        if self.severities is not None and severity not in self.severities:
            return False
        return True

    def expires_after(self) -> timedelta | None:
        """How long a request of this kind waits (``None``: until decided)."""
        if self.lifetime is None:
            return timedelta(hours=settings.APPROVAL_LIFETIME_HOURS)
        return self.lifetime or None

    def may_request(self, actor) -> bool:
        return bool(getattr(actor, "has_capability", None)) and actor.has_capability(self.request_capability)

    def may_approve(self, actor) -> bool:
        return bool(getattr(actor, "has_capability", None)) and actor.has_capability(self.approve_capability)

    def approver_roles(self) -> list[str]:
        """The roles that may decide (the policy table in the docs and the queue read this)."""
        return [role for role in StaffRole.values if roles.has_capability(role, self.approve_capability)]


# ``lifetime`` of a kind whose own record waits until decided (a credit request, a rule proposal)
NEVER = timedelta(0)

_POLICY: dict[str, SensitiveAction] = {}


def register(action: SensitiveAction) -> SensitiveAction:
    """Add ``action`` to the policy (again with the same kind: replaced, as ``ready()`` can run twice in tests)."""
    _POLICY[action.kind] = action
    return action


def policy(kind: str) -> SensitiveAction:
    """The registered action ``kind`` (an unknown kind is a bug: KeyError names it)."""
    try:
        return _POLICY[kind]
    except KeyError:
        raise KeyError(f"no sensitive action {kind!r} is registered (backoffice.dual_control)") from None


def policies() -> list[SensitiveAction]:
    """Every registered action, by kind."""
    return [_POLICY[kind] for kind in sorted(_POLICY)]


def kinds_decidable_by(actor) -> list[str]:
    """The kinds ``actor`` may approve or reject (the queue shows only these)."""
    return [action.kind for action in policies() if action.may_approve(actor)]
