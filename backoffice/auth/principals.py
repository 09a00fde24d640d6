"""The kinds of principal that sign in (staff, platform users, vendors), found through one registry.

The foundation issues and checks tokens for every kind but knows no domain
model: each app registers its kind from ``AppConfig.ready()`` (``register``),
naming its model, the field people log in with, which rows may sign in, and
what else a login must check. Token authentication, refresh, one-time codes
and the shared register/login services (``backoffice.services.auth``) all
look a kind up here.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db.models import Exists, Model

from backoffice.models import EndedSession


@dataclass(frozen=True)
class PrincipalKind:
    """How one kind of principal signs in.

    ``login_field``: the model field a login names (``email`` or ``phone_number``).
    ``active``: the filter of rows that may hold a session (e.g. ``{"is_active": True}``).
    ``login_filter``: the rows a login looks among (default ``active``); a kind whose refusal has its
    own answer (an archived user gets 403 ACCOUNT_ARCHIVED, not 401) looks among all and lets
    ``login_checks`` refuse.
    ``login_checks``: called with the principal after the password matched; raises a
    DomainError when it may not sign in yet (phone not verified, archived...).
    ``unique_messages``: the 409 message for each unique field a registration may clash on, checked in
    order; ``clash_message`` answers a clash only the database saw (two registrations racing).
    ``verifies_phone``: the kind proves its phone number with a one-time code.
    ``generation_field``: an integer field of the model that grows whenever the principal's sessions must
    end (staff: a new password, another role, deactivation). Tokens carry it; a token issued under an
    older value is refused (``backoffice.auth.tokens``). None: the kind's sessions end only by expiry or logout.
    ``second_factor``: called after the password and ``login_checks`` with ``(principal, otp, via)`` (the
    login's ``otp`` field, None when absent); raises a DomainError when a second factor is needed and was not
    given right (staff: ``backoffice.services.mfa.staff_second_factor``). None: the kind has no second factor.
    """

    kind: str
    model: str
    login_field: str
    active: dict = field(default_factory=dict)
    login_filter: dict | None = None
    login_checks: Callable[[Model], None] | None = None
    unique_messages: dict[str, str] = field(default_factory=dict)
    clash_message: str = "An account with these details already exists"
    verifies_phone: bool = False
    generation_field: str | None = None
    second_factor: Callable[[Model, str | None, str], None] | None = None

    @property
    def model_class(self) -> type[Model]:
        return apps.get_model(self.model)


_KINDS: dict[str, PrincipalKind] = {}


def register(principal: PrincipalKind) -> None:
    _KINDS[principal.kind] = principal


def get(kind: str) -> PrincipalKind:
    try:
        return _KINDS[kind]
    except KeyError:
        raise LookupError(f"no principal kind {kind!r} is registered") from None


def kinds() -> frozenset[str]:
    return frozenset(_KINDS)


def load_active(kind: str, principal_id, *, session: str | None = None) -> Model | None:
    """The principal of this kind and id who may hold a session, or None (also for a malformed id).

    With ``session`` (a token's ``sid``), None as well when that session was ended by signing out: read
    in the same query, so checking it costs a request nothing.
    """
    principal = _KINDS.get(kind)
    if principal is None:
        return None
    model = principal.model_class
    try:
        rows = model.objects.filter(pk=principal_id, **principal.active)
        if session:
            rows = rows.annotate(session_ended=Exists(EndedSession.objects.filter(sid=str(session))))
        found = rows.first()
    except (ValueError, ValidationError):
        return None
    if found is not None and getattr(found, "session_ended", False):
        return None
    return found


def is_active(kind: str, principal_id) -> bool:
    return load_active(kind, principal_id) is not None


def generation_of(kind: str, principal: Model) -> int:
    """The principal's token generation (0 for a kind that has none)."""
    spec = _KINDS.get(kind)
    if spec is None or spec.generation_field is None:
        return 0
    return int(getattr(principal, spec.generation_field) or 0)


def find_by_phone(phone_number: str) -> list[Model]:
    """Every principal, of any phone-verifying kind, that holds this (normalised) number."""
    found: list[Model] = []
    for principal in _KINDS.values():
        if principal.verifies_phone:
            found.extend(principal.model_class.objects.filter(phone_number=phone_number))
    return found
