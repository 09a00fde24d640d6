"""JWTs for every kind of principal (``backoffice.auth.principals``): staff, platform users, vendors.

Each token carries ``kind`` and ``sub`` (the principal's id). Refresh tokens
rotate: using one blacklists it (simplejwt's blacklist app), so a replayed
refresh token is refused. The blacklist insert is what decides a race: two
concurrent refreshes with one token cannot both succeed.

Sessions end:

* **on demand, all at once**: tokens carry ``gen``, the principal's token
  generation (``PrincipalKind.generation_field``). Staff bump it when their
  password, role or active flag changes (``Staff.save``), and every access and
  refresh token issued before is refused from the next request on. One integer
  on the principal, read with the row authentication loads anyway: no per-token
  rows to find and blacklist, and access tokens die at once too, not 15 minutes
  later.
* **on signing out, that session only**: tokens carry ``sid``, the id of the
  session (one sign-in and its chain of rotated refresh tokens); rotation copies
  it. Signing out records the session as ended (``EndedSession``), and from the
  next request on none of its tokens is honoured: not the refresh token, not an
  access token still within its 15 minutes. Authentication reads the record in
  the query that loads the principal. Other sessions of the same principal (other
  devices) go on.
* **at the latest ``REFRESH_SESSION_MAX_DAYS`` after signing in**: tokens carry
  ``sst``, the time of the login that opened the session; rotation copies it and
  refuses a session older than the limit, and a rotated refresh token never
  expires later than the session does.
"""

import time
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from rest_framework_simplejwt.tokens import AccessToken, RefreshToken, UntypedToken
from rest_framework_simplejwt.utils import datetime_from_epoch

from backoffice.auth import principals
from backoffice.errors import Unauthorized
from backoffice.models import EndedSession

# The foundation's own kind; apps register theirs ("user", "vendor") in backoffice.auth.principals.
STAFF = "staff"


@dataclass(frozen=True)
class TokenPair:
    access: str
    refresh: str

    def as_data(self) -> dict:
        return {
            "accessToken": self.access,
            "refreshToken": self.refresh,
            "tokenType": "Bearer",
            "expiresIn": int(settings.SIMPLE_JWT["ACCESS_TOKEN_LIFETIME"].total_seconds()),
        }


def _record_outstanding(refresh: RefreshToken) -> None:
    OutstandingToken.objects.create(
        jti=refresh["jti"],
        token=str(refresh),
        created_at=refresh.current_time,
        expires_at=datetime_from_epoch(refresh["exp"]),
    )


def _session_limit() -> int:
    return settings.REFRESH_SESSION_MAX_DAYS * 86400


def issue_pair(
    *, kind: str, principal_id, principal=None, session_start: int | None = None, session_id: str | None = None
) -> TokenPair:
    """A new access/refresh pair for the principal; ``session_start`` (epoch seconds) and ``session_id`` carry a
    session on (a rotation); without them the pair opens a new session.

    ``principal`` saves a query when the caller has the row; otherwise its generation is read.
    """
    if principal is None:
        principal = principals.get(kind).model_class.objects.filter(pk=principal_id).first()
    refresh = RefreshToken()
    refresh["kind"] = kind
    refresh["sub"] = str(principal_id)
    refresh["gen"] = principals.generation_of(kind, principal) if principal is not None else 0
    refresh["sst"] = int(session_start if session_start is not None else time.time())
    refresh["sid"] = session_id or uuid.uuid4().hex
    # a rotated token lives no longer than its session may
    refresh["exp"] = min(int(refresh["exp"]), refresh["sst"] + _session_limit())
    _record_outstanding(refresh)
    return TokenPair(access=str(refresh.access_token), refresh=str(refresh))


def _parse_refresh(raw: str) -> RefreshToken:
    try:
        token = RefreshToken(raw, verify=True)
    except TokenError:
        raise Unauthorized("Refresh token is invalid or expired", code="TOKEN_INVALID") from None
    if token.get("kind") not in principals.kinds() or not token.get("sub"):
        raise Unauthorized("Refresh token is invalid or expired", code="TOKEN_INVALID")
    return token


def _revoke(token: RefreshToken) -> bool:
    """Blacklist ``token``; False when it already was (a replay or a lost race)."""
    outstanding, _ = OutstandingToken.objects.get_or_create(
        jti=token["jti"],
        defaults={"token": str(token), "expires_at": datetime_from_epoch(token["exp"])},
    )
    try:
        with transaction.atomic():
            _, created = BlacklistedToken.objects.get_or_create(token=outstanding)
    except IntegrityError:
        return False
    return created


@transaction.atomic
def rotate(*, raw_refresh: str) -> tuple[str, str, TokenPair]:
    """Spend a refresh token and issue a new pair for the same principal.

    A principal who may no longer sign in (an archived user, a deactivated
    staff account: ``principals.is_active``) gets no new pair.
    """
    token = _parse_refresh(raw_refresh)
    if not _revoke(token):
        raise Unauthorized("Refresh token is invalid or expired", code="TOKEN_INVALID")
    kind, sub = token["kind"], token["sub"]
    principal = principals.load_active(kind, sub, session=token.get("sid"))
    if principal is None or not is_current(kind, principal, token):
        raise Unauthorized("Refresh token is invalid or expired", code="TOKEN_INVALID")
    session_start = int(token.get("sst", token.get("iat", 0)))
    if time.time() - session_start > _session_limit():
        raise Unauthorized("The session has expired; sign in again", code="TOKEN_INVALID")
    pair = issue_pair(
        kind=kind, principal_id=sub, principal=principal, session_start=session_start, session_id=token.get("sid")
    )
    return kind, sub, pair


def is_current(kind: str, principal, token) -> bool:
    """Whether ``token`` was issued under the principal's present generation (no session-ending change since)."""
    return int(token.get("gen", 0)) == principals.generation_of(kind, principal)


@transaction.atomic
def revoke(*, raw_refresh: str) -> None:
    """Sign out: spend the refresh token and end its session, so its access tokens stop working too."""
    token = _parse_refresh(raw_refresh)
    _revoke(token)
    end_session(token)


def end_session(token) -> None:
    """Record the token's session as ended (a token from before sessions had ids has only itself to revoke)."""
    sid = token.get("sid")
    if not sid:
        return
    now = timezone.now()
    # no token of the session lives past the session's own limit (refresh) or the access lifetime from now
    session_end = int(token.get("sst", token.get("iat", 0))) + _session_limit()
    expires_at = max(
        datetime_from_epoch(session_end), now + settings.SIMPLE_JWT["ACCESS_TOKEN_LIFETIME"] + timedelta(minutes=1)
    )
    EndedSession.objects.filter(expires_at__lt=now).delete()  # what can no longer matter
    EndedSession.objects.get_or_create(
        sid=str(sid),
        defaults={"kind": token["kind"], "principal_id": str(token["sub"]), "expires_at": expires_at},
    )


def decode_access(raw: str) -> AccessToken:
    """A valid access token naming a principal (``kind``, ``sub``); raises TokenError otherwise."""
    token = AccessToken(raw)
    kind, sub = token.get("kind"), token.get("sub")
    if kind not in principals.kinds() or not sub:
        raise TokenError("Token has no principal")
    return token


def peek_principal(raw: str) -> tuple[str, str] | None:
    """(kind, sub) of a token whose signature and expiry check out, for rate-limit keys only."""
    try:
        token = UntypedToken(raw)
    except TokenError:
        return None
    if token.get("token_type") != "access":
        return None
    kind, sub = token.get("kind"), token.get("sub")
    return (kind, sub) if kind in principals.kinds() and sub else None
