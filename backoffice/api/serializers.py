"""Shapes every app shares: the token endpoints' bodies, the staff record, and input fields and mixins."""

from collections.abc import Mapping

from rest_framework import serializers


class AdminLoginIn(serializers.Serializer):
    email = serializers.CharField(max_length=254, source="login")
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class RefreshIn(serializers.Serializer):
    refreshToken = serializers.CharField(source="refresh_token")


class OtpVerifyIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32, source="phone_number")
    code = serializers.RegexField(r"^\d{6}$", error_messages={"invalid": "The code is 6 digits."})


class OtpResendIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32, source="phone_number")


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


class StrictCharField(serializers.CharField):
    """Text that must arrive as a JSON string: a number or a boolean is a mistake to report, not to convert."""

    default_error_messages = {"invalid": "Must be a string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class MoneyField(serializers.DecimalField):
    """Emalangeni: a JSON number with at most two decimals, exact (Decimal) both ways, as the ledger stores it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("coerce_to_string", False)
        super().__init__(**kwargs)
