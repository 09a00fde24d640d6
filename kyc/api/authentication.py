"""Bearer tokens of platform users (kind ``user``): the endpoints a user calls about themself."""

from backoffice import tokens
from backoffice.api.authentication import PrincipalJWTAuthentication
from kyc.services.auth import KIND


class UserJWTAuthentication(PrincipalJWTAuthentication):
    kind = KIND


class StaffOrUserJWTAuthentication(PrincipalJWTAuthentication):
    """Staff or a platform user (never a vendor): endpoints where a user acts about themself."""

    kinds = (tokens.STAFF, KIND)
