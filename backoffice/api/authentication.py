"""Bearer-JWT authentication, one class per kind of principal.

A token of one kind never authenticates on another kind's endpoints: the
class checks the token's ``kind`` claim before it loads anyone. The model and
who may sign in come from ``backoffice.auth.principals``; apps subclass
``PrincipalJWTAuthentication`` with their own ``kind`` (``kyc``: users,
``vendors``: vendors).
"""

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework_simplejwt.exceptions import TokenError

from backoffice.api.service_keys import request_service_key
from backoffice.auth import principals, tokens
from backoffice.ops import context

BAD_TOKEN = "Token is invalid or expired"


def bearer_token(request) -> str | None:
    """The raw token of ``Authorization: Bearer <token>``; None when the header is absent."""
    header = request.META.get("HTTP_AUTHORIZATION")
    if header is None:
        return None
    parts = header.split()
    if len(parts) != 2 or parts[0] != "Bearer":
        raise exceptions.AuthenticationFailed("Authorization header must be 'Bearer <token>'")
    return parts[1]


class PrincipalJWTAuthentication(BaseAuthentication):
    kind: str = ""
    # endpoints that serve more than one kind (a user's own verification job, or staff) list them all
    kinds: tuple[str, ...] = ()

    def authenticate(self, request):
        raw = bearer_token(request)
        if raw is None:
            return None
        try:
            token = tokens.decode_access(raw)
        except TokenError:
            raise exceptions.AuthenticationFailed(BAD_TOKEN) from None
        kind, sub = token["kind"], token["sub"]
        if kind != self.kind and kind not in self.kinds:
            raise exceptions.AuthenticationFailed("This token is not valid for this endpoint")
        principal = principals.load_active(kind, sub, session=token.get("sid"))
        if principal is None or not tokens.is_current(kind, principal, token):
            raise exceptions.AuthenticationFailed(BAD_TOKEN)
        # log events of the rest of this request name who made it (backoffice.ops.logs)
        context.principal.set(f"{kind}:{principal.pk}")
        return principal, raw

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


class StaffJWTAuthentication(PrincipalJWTAuthentication):
    kind = tokens.STAFF


class ServiceKeyAuthentication(BaseAuthentication):
    """``X-API-Key: <key>`` of a payment-platform service (``backoffice.models.ServiceKey``).

    Only views that list this class read the header; everywhere else a key is
    not a credential and the request is unauthenticated (401). An unknown,
    malformed or revoked key is 401 here. The key never appears in an error,
    a log line or the audit log: only the key's name does.
    """

    header = "HTTP_X_API_KEY"

    def authenticate(self, request):
        if request.META.get(self.header) is None:
            return None
        key = request_service_key(request)  # checked once per request, shared with the rate limiter
        if key is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked API key")
        return key, None

    def authenticate_header(self, request):
        return 'ApiKey realm="api"'
