"""Token endpoints: staff, user and vendor sign-in, refresh, logout, registration and OTP."""

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework.views import APIView

from backoffice import services, tokens
from backoffice.api import serializers as s
from backoffice.api.envelope import ok
from backoffice.api.permissions import Public
from backoffice.models import Staff
from backoffice.otp import InvalidCode, otp_issue
from backoffice.phones import try_normalise_phone
from kyc import services as kyc_services
from kyc.models import PlatformUser
from vendors import services as vendor_services
from vendors.models import Vendor


class AuthView(APIView):
    """Public endpoints under /auth/; they count against the authentication rate limit."""

    authentication_classes = []
    permission_classes = [Public]
    input_serializer = None

    def valid(self, request):
        serializer = self.input_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class AdminLoginView(AuthView):
    input_serializer = s.AdminLoginIn

    @extend_schema(request=s.AdminLoginIn, responses={200: s.AdminLoginOut}, summary="Staff login")
    def post(self, request):
        data = self.valid(request)
        staff, pair = services.staff_login(email=data["email"], password=data["password"])
        return ok(s.AdminLoginOut({**pair.as_data(), "admin": staff}).data)


def _principal_active(kind: str, sub: str) -> bool:
    try:
        if kind == tokens.STAFF:
            return Staff.objects.filter(pk=sub, is_active=True).exists()
        if kind == tokens.USER:
            return PlatformUser.objects.filter(pk=sub, is_archived=False).exists()
        return Vendor.objects.filter(pk=sub, is_active=True).exists()
    except (ValueError, DjangoValidationError):  # a malformed id in a signed token is simply not active
        return False


class RefreshView(AuthView):
    input_serializer = s.RefreshIn

    @extend_schema(request=s.RefreshIn, responses={200: s.TokenPairOut}, summary="Rotate a refresh token")
    def post(self, request):
        data = self.valid(request)
        _kind, _sub, pair = tokens.rotate(raw_refresh=data["refreshToken"], is_active=_principal_active)
        return ok(pair.as_data())


class LogoutView(AuthView):
    input_serializer = s.RefreshIn

    @extend_schema(request=s.RefreshIn, responses={200: s.EmptyOut}, summary="Revoke a refresh token")
    def post(self, request):
        data = self.valid(request)
        tokens.revoke(raw_refresh=data["refreshToken"])
        return ok({}, message="Logged out")


class UserRegisterView(AuthView):
    input_serializer = s.UserRegisterIn

    @extend_schema(request=s.UserRegisterIn, responses={201: s.UserRegisteredOut}, summary="Register a user")
    def post(self, request):
        data = self.valid(request)
        user = kyc_services.user_register(
            phone_number=data["phoneNumber"],
            password=data["password"],
            first_name=data["firstName"],
            last_name=data["lastName"],
            email=data.get("email", ""),
        )
        return ok(s.UserRegisteredOut(user).data, message="Registered; a code was sent to your phone", status=201)


class UserLoginView(AuthView):
    input_serializer = s.UserLoginIn

    @extend_schema(request=s.UserLoginIn, responses={200: s.UserLoginOut}, summary="User login")
    def post(self, request):
        data = self.valid(request)
        user, pair = kyc_services.user_login(phone_number=data["phoneNumber"], password=data["password"])
        return ok(s.UserLoginOut({**pair.as_data(), "user": user}).data)


class VendorRegisterView(AuthView):
    input_serializer = s.VendorRegisterIn

    @extend_schema(request=s.VendorRegisterIn, responses={201: s.VendorRegisteredOut}, summary="Register a vendor")
    def post(self, request):
        data = self.valid(request)
        vendor = vendor_services.vendor_register(
            business_name=data["businessName"],
            phone_number=data["phoneNumber"],
            email=data["email"],
            password=data["password"],
            contact_name=data.get("contactName", ""),
        )
        return ok(s.VendorRegisteredOut(vendor).data, message="Vendor registered", status=201)


class VendorLoginView(AuthView):
    input_serializer = s.VendorLoginIn

    @extend_schema(request=s.VendorLoginIn, responses={200: s.VendorLoginOut}, summary="Vendor login")
    def post(self, request):
        data = self.valid(request)
        vendor, pair = vendor_services.vendor_login(email=data["email"], password=data["password"])
        return ok(s.VendorLoginOut({**pair.as_data(), "vendor": vendor}).data)


def _unverified_principal(raw_phone: str):
    phone = try_normalise_phone(raw_phone)
    if phone is None:
        return None, None
    user = PlatformUser.objects.filter(phone_number=phone).first()
    if user is not None:
        return phone, user
    return phone, Vendor.objects.filter(phone_number=phone).first()


class OtpVerifyView(AuthView):
    input_serializer = s.OtpVerifyIn

    @extend_schema(request=s.OtpVerifyIn, responses={200: s.PhoneVerifiedOut}, summary="Verify a phone number")
    def post(self, request):
        data = self.valid(request)
        _phone, principal = _unverified_principal(data["phoneNumber"])
        if principal is None:
            raise InvalidCode()
        if isinstance(principal, PlatformUser):
            kyc_services.user_phone_verify(user=principal, code=data["code"])
        else:
            vendor_services.vendor_phone_verify(vendor=principal, code=data["code"])
        return ok({"isPhoneVerified": True}, message="Phone number verified")


class OtpResendView(AuthView):
    input_serializer = s.OtpResendIn

    @extend_schema(request=s.OtpResendIn, responses={200: s.EmptyOut}, summary="Send a new one-time code")
    def post(self, request):
        data = self.valid(request)
        phone, principal = _unverified_principal(data["phoneNumber"])
        # Same answer whether or not the number is known, so the endpoint reveals no accounts.
        if principal is not None and not principal.is_phone_verified:
            otp_issue(phone_number=phone)
        return ok({}, message="If the number is registered and unverified, a new code was sent")
