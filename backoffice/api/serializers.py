"""Shapes every app shares: the token endpoints' bodies, the staff record, and input fields and mixins."""

import re
from collections.abc import Mapping
from decimal import Decimal

from django.db import connection
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from backoffice.jsondepth import JsonDepthValidator
from backoffice.jsonkeys import camel, camel_keys, jsonb_ordered
from backoffice.roles import CAPABILITIES
from backoffice.strictjson import JsonNumber


class AdminLoginIn(serializers.Serializer):
    email = serializers.CharField(max_length=254, source="login")
    password = serializers.CharField(max_length=256, trim_whitespace=False)
    otp = serializers.CharField(
        max_length=32,
        required=False,
        allow_blank=True,
        help_text="For staff with two-factor sign-in: the authenticator app's current 6-digit code, or an unspent "
        "recovery code",
    )


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


class BoundedJSONField(serializers.JSONField):
    """Any JSON value to be stored, nested at most ``MAX_STORED_JSON_DEPTH`` levels (``backoffice.jsondepth``)."""

    default_validators = [JsonDepthValidator()]


class CamelKeysJSONField(serializers.JSONField):
    """Stored JSON (snake_case keys, as Vikela stores it) answered with the interface's camelCase keys, at any depth.

    For values whose keys are all Vikela's own (alert details, a name match's explanation); values are never
    touched. ``depth=1`` maps only the top level: a document that embeds a client's own JSON (a rule version's
    conditions) leaves that as the client wrote it.

    Byte for byte: PostgreSQL's jsonb keeps an object's keys in its own order (shorter keys first), so the
    camelCase keys the column held before came out in an order the snake_case ones no longer give. A value
    read from the database (``stored``, the default) is answered in the order jsonb gives the camelCase keys;
    SQLite keeps the written order, which the mapping keeps. ``stored=False``: a value computed in memory.
    """

    def __init__(self, *args, depth: int | None = None, stored: bool = True, **kwargs):
        self.depth = depth
        self.stored = stored
        super().__init__(*args, **kwargs)

    def to_representation(self, value):
        if self.depth == 1 and isinstance(value, dict):
            value = {camel(k) if isinstance(k, str) else k: v for k, v in value.items()}
        else:
            value = camel_keys(value)
        if self.stored and connection.vendor == "postgresql":
            value = jsonb_ordered(value, depth=self.depth)
        return super().to_representation(value)


class BoundedJSONObjectField(serializers.DictField):
    """A JSON object to be stored, nested at most ``MAX_STORED_JSON_DEPTH`` levels."""

    default_validators = [JsonDepthValidator()]


# A plain decimal written with ASCII digits: no sign other than "-", no exponent, no underscore, no spaces.
_PLAIN_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")
CENT = Decimal("0.01")


@extend_schema_field(
    {
        "type": "number",
        "format": "decimal",
        "multipleOf": 0.01,
        "description": 'Emalangeni: a JSON number with at most 2 decimals (a string such as "10.50" is accepted too)',
    }
)
class MoneyField(serializers.DecimalField):
    """Emalangeni, exact both ways: the one field every amount of the API goes through.

    Input is read from the text the client wrote, never through a binary float: a JSON number
    (``backoffice.strictjson.JsonNumber`` keeps its literal) or a string holding a plain decimal
    (``"10.50"``, accepted for clients that send money as text). Refused: more than two decimal places by
    value (``10.500`` is 10.50 and fine; ``0.0099999999999999999`` is not), exponents (``1e2``),
    underscores, signs other than ``-``, digits of other scripts or fullwidth digits, booleans, NaN and
    infinities. Output is a JSON number (``coerce_to_string=False``).
    """

    default_error_messages = {
        "invalid": "Must be a number with at most 2 decimal places, such as 10.50.",
        "exponent": "Write the amount without an exponent, such as 100.50.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("coerce_to_string", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, int):
            text = str(data)
        elif isinstance(data, JsonNumber):
            text = data.text
        elif isinstance(data, float):  # not from a request body (a test, a caller in code): its shortest text
            text = repr(data)
        elif isinstance(data, str):
            text = data
        else:
            self.fail("invalid")
        if "e" in text.lower() and isinstance(data, float):
            self.fail("exponent")
        if not _PLAIN_DECIMAL.fullmatch(text):
            self.fail("invalid")
        # counted on the text, so no digit string is ever rounded to the decimal context's precision
        whole, _, fraction = text.lstrip("-").partition(".")
        if len(fraction.rstrip("0")) > self.decimal_places:
            self.fail("max_decimal_places", max_decimal_places=self.decimal_places)
        if len(whole.lstrip("0")) > self.max_digits - self.decimal_places:
            self.fail("max_whole_digits", max_whole_digits=self.max_digits - self.decimal_places)
        return Decimal(text).quantize(CENT)


class ApprovalRequestOut(serializers.Serializer):
    """A sensitive action waiting for a second person (docs/dual-control.md), as an API answer names it."""

    id = serializers.UUIDField()
    kind = serializers.CharField()
    targetType = serializers.CharField(source="target_type")
    targetId = serializers.CharField(source="target_id")
    summary = serializers.CharField()
    amount = MoneyField(allow_null=True)
    requestedBy = serializers.CharField(source="requested_by.email")
    reason = serializers.CharField()
    status = serializers.CharField()
    expiresAt = serializers.DateTimeField(source="expires_at", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")
