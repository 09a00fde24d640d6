"""Token endpoints shared by every kind of principal, and the bases of each kind's login and register views.

Staff sign in here; platform users and vendors sign in and register through
views in ``kyc.api`` and ``vendors.api`` that subclass ``PrincipalLoginView``
and ``PrincipalRegisterView``, so there is one implementation of each step
(``backoffice.services.auth``) and each app only names its kind and shapes.
"""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.views import APIView

from backoffice import services
from backoffice.api import serializers as s
from backoffice.api.envelope import ok
from backoffice.api.permissions import Public
from backoffice.auth import tokens


class AuthView(APIView):
    """Public endpoints under /auth/; they count against the authentication rate limit."""

    authentication_classes = []
    permission_classes = [Public]
    input_serializer = None

    def valid(self, request) -> dict:
        serializer = self.input_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class PrincipalLoginView(AuthView):
    """Login of one kind of principal: subclasses set ``kind``, the serializers and ``principal_key``.

    The input serializer maps its login field (email, phoneNumber) to ``login``.
    """

    kind: str = ""
    output_serializer = None
    principal_key = ""
    error_statuses = {
        401: "Wrong credentials (INVALID_CREDENTIALS), the same whether or not the account exists",
        403: "The account may not sign in yet (PHONE_NOT_VERIFIED, ACCOUNT_ARCHIVED)",
        429: "Rate limited, or too many failed sign-ins for this account (ACCOUNT_LOCKED)",
    }

    def post(self, request):
        data = self.valid(request)
        principal, pair = services.principal_login(
            kind=self.kind, login=data["login"], password=data["password"], otp=data.get("otp")
        )
        return ok(self.output_serializer({**pair.as_data(), self.principal_key: principal}).data)


class PrincipalRegisterView(AuthView):
    """Registration of one kind: ``register`` is the app's service, called with the validated body."""

    register = None  # a staticmethod: (**validated_data) -> principal
    output_serializer = None
    message = "Registered; a code was sent to your phone"

    def post(self, request):
        principal = self.register(**self.valid(request))
        return ok(self.output_serializer(principal).data, message=self.message, status=201)


@extend_schema_view(post=extend_schema(request=s.AdminLoginIn, responses={200: s.AdminLoginOut}, summary="Staff login"))
class AdminLoginView(PrincipalLoginView):
    kind = tokens.STAFF
    input_serializer = s.AdminLoginIn
    output_serializer = s.AdminLoginOut
    principal_key = "admin"
    error_statuses = {
        **PrincipalLoginView.error_statuses,
        401: "Wrong credentials (INVALID_CREDENTIALS), the same whether or not the account exists; the staff member "
        "has two-factor sign-in and sent no otp (OTP_REQUIRED) or a wrong, expired or spent one (OTP_INVALID)",
        403: "The role must sign in with a second factor and the staff member has not set one up yet "
        "(MFA_ENROLMENT_REQUIRED: enrol in the admin site)",
        429: "Rate limited, too many failed sign-ins for this account (ACCOUNT_LOCKED: wrong codes count), or too "
        "soon after a wrong code (OTP_THROTTLED)",
    }


class RefreshView(AuthView):
    input_serializer = s.RefreshIn
    error_statuses = {401: "The refresh token is invalid, expired, revoked or already used (TOKEN_INVALID)"}

    @extend_schema(request=s.RefreshIn, responses={200: s.TokenPairOut}, summary="Rotate a refresh token")
    def post(self, request):
        _kind, _sub, pair = tokens.rotate(raw_refresh=self.valid(request)["refresh_token"])
        return ok(pair.as_data())


class LogoutView(AuthView):
    input_serializer = s.RefreshIn
    error_statuses = {401: "The refresh token is invalid or expired (TOKEN_INVALID)"}

    @extend_schema(
        request=s.RefreshIn,
        responses={200: s.EmptyOut},
        summary="Sign out: revoke the session (its refresh and access tokens)",
    )
    def post(self, request):
        tokens.revoke(raw_refresh=self.valid(request)["refresh_token"])
        return ok({}, message="Logged out")


class OtpVerifyView(AuthView):
    input_serializer = s.OtpVerifyIn

    @extend_schema(request=s.OtpVerifyIn, responses={200: s.PhoneVerifiedOut}, summary="Verify a phone number")
    def post(self, request):
        services.principal_phone_verify(**self.valid(request))
        return ok({"isPhoneVerified": True}, message="Phone number verified")


class OtpResendView(AuthView):
    input_serializer = s.OtpResendIn

    @extend_schema(request=s.OtpResendIn, responses={200: s.EmptyOut}, summary="Send a new one-time code")
    def post(self, request):
        # the same answer whether or not the number is known, so the endpoint reveals no accounts
        services.principal_code_resend(**self.valid(request))
        return ok({}, message="If the number is registered and unverified, a new code was sent")
