"""Input and output shapes of the authentication endpoints."""

from collections.abc import Mapping

from rest_framework import serializers


class AdminLoginIn(serializers.Serializer):
    email = serializers.CharField(max_length=254)
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class RefreshIn(serializers.Serializer):
    refreshToken = serializers.CharField()


class UserRegisterIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32)
    password = serializers.CharField(max_length=256, trim_whitespace=False)
    firstName = serializers.CharField(max_length=100)
    lastName = serializers.CharField(max_length=100)
    email = serializers.EmailField(required=False, allow_blank=True)


class UserLoginIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32)
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class VendorRegisterIn(serializers.Serializer):
    businessName = serializers.CharField(max_length=200)
    phoneNumber = serializers.CharField(max_length=32)
    email = serializers.EmailField()
    password = serializers.CharField(max_length=256, trim_whitespace=False)
    contactName = serializers.CharField(max_length=200, required=False, allow_blank=True)


class VendorLoginIn(serializers.Serializer):
    email = serializers.CharField(max_length=254)
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class OtpVerifyIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32)
    code = serializers.RegexField(r"^\d{6}$", error_messages={"invalid": "The code is 6 digits."})


class OtpResendIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32)


class TokenPairOut(serializers.Serializer):
    accessToken = serializers.CharField()
    refreshToken = serializers.CharField()
    tokenType = serializers.CharField()
    expiresIn = serializers.IntegerField()


class StaffOut(serializers.Serializer):
    id = serializers.UUIDField()
    email = serializers.EmailField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    role = serializers.CharField()


class StaffMeOut(StaffOut):
    capabilities = serializers.SerializerMethodField()

    def get_capabilities(self, staff) -> list[str]:
        from backoffice.roles import CAPABILITIES

        return sorted(CAPABILITIES.get(staff.role, ()))


class AdminLoginOut(TokenPairOut):
    admin = StaffOut()


class UserBriefOut(serializers.Serializer):
    id = serializers.UUIDField()
    phoneNumber = serializers.CharField(source="phone_number")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class UserLoginOut(TokenPairOut):
    user = UserBriefOut()


class UserRegisteredOut(serializers.Serializer):
    id = serializers.UUIDField()
    phoneNumber = serializers.CharField(source="phone_number")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    email = serializers.CharField()
    verificationStatus = serializers.CharField(source="verification_status")
    isPhoneVerified = serializers.BooleanField(source="is_phone_verified")


class VendorBriefOut(serializers.Serializer):
    id = serializers.UUIDField()
    businessName = serializers.CharField(source="business_name")
    email = serializers.EmailField()


class VendorLoginOut(TokenPairOut):
    vendor = VendorBriefOut()


class VendorRegisteredOut(serializers.Serializer):
    id = serializers.UUIDField()
    businessName = serializers.CharField(source="business_name")
    phoneNumber = serializers.CharField(source="phone_number")
    email = serializers.EmailField()
    kycStatus = serializers.CharField(source="kyc_status")


class PhoneVerifiedOut(serializers.Serializer):
    isPhoneVerified = serializers.BooleanField()


class EmptyOut(serializers.Serializer):
    pass


class RejectUnknownFieldsMixin:
    """Input serializers that refuse fields outside their table (a typo must not be silently dropped).

    Unknown fields are reported beside the known fields' own errors, in one 400.
    """

    unknown_field_message = "This field cannot be set here."

    def to_internal_value(self, data):
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, Mapping) else []
        errors: dict = {}
        value = None
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if not isinstance(exc.detail, dict):
                raise
            errors.update(exc.detail)
        errors.update({name: [self.unknown_field_message] for name in unknown})
        if errors:
            raise serializers.ValidationError(errors)
        return value


class PassThroughField(serializers.Field):
    """A JSON value handed to the service untouched, so the service's own rules (and messages) decide.

    Use where a domain rule must hold for the admin site too: the service
    validates, and reports every field's problem in one 400. Subclass it with
    ``@extend_schema_field`` to document the expected type.
    """

    def to_internal_value(self, data):
        return data

    def to_representation(self, value):
        return value


class MoneyField(serializers.DecimalField):
    """Emalangeni: a JSON number with at most two decimals, exact (Decimal) both ways, as the ledger stores it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("coerce_to_string", False)
        super().__init__(**kwargs)
