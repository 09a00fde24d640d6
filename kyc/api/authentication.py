"""Bearer tokens of platform users (kind ``user``): the endpoints a user calls about themself."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from backoffice.api.authentication import PrincipalJWTAuthentication
from backoffice.auth import tokens
from kyc.services.auth import KIND


class StaffOrUserJWTAuthentication(PrincipalJWTAuthentication):
    """Staff or a platform user (never a vendor): endpoints where a user acts about themself."""

    kinds = (tokens.STAFF, KIND)


class StaffOrUserBearerScheme(OpenApiAuthenticationExtension):
    """Its own name in the OpenAPI document: the same bearer scheme, open to two kinds of principal."""

    target_class = StaffOrUserJWTAuthentication
    priority = 1
    name = "jwtAuthStaffOrUser"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "JWT",
            "description": "An access token of a staff member or of a platform user (about their own records)",
        }
