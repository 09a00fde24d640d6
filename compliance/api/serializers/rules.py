"""AML rule shapes: the record clients read, and the create/update bodies."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from backoffice.api.serializers import PassThroughField, RejectUnknownFieldsMixin
from compliance.choices import Severity


@extend_schema_field(OpenApiTypes.INT)
class PriorityInput(PassThroughField):
    """The service checks the priority, so "Invalid priority value" is one message for every caller."""


class StrictBoolean(serializers.BooleanField):
    """JSON true/false only: a string "false" must not become True, nor be guessed at."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)


class RuleCreateIn(RejectUnknownFieldsMixin, serializers.Serializer):
    ruleId = serializers.RegexField(
        r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$",
        max_length=64,
        error_messages={"invalid": "Letters, digits and - _ . : only, up to 64."},
    )
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    category = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
    conditions = serializers.JSONField()
    actions = serializers.DictField(required=False, default=dict)
    severity = serializers.ChoiceField(choices=Severity.choices, required=False, default=Severity.MEDIUM)
    isActive = StrictBoolean(required=False, default=False)
    priority = PriorityInput(required=False, default=100, help_text="Integer from 0 to 1000")


class RuleUpdateIn(RejectUnknownFieldsMixin, serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    category = serializers.CharField(max_length=64, required=False, allow_blank=True)
    conditions = serializers.JSONField(required=False)
    actions = serializers.DictField(required=False)
    severity = serializers.ChoiceField(choices=Severity.choices, required=False)
    isActive = StrictBoolean(required=False)
    priority = PriorityInput(required=False, help_text="Integer from 0 to 1000")

    FIELD_MAP = {"isActive": "is_active"}

    def changes(self) -> dict:
        return {self.FIELD_MAP.get(k, k): v for k, v in self.validated_data.items()}


class RuleOut(serializers.Serializer):
    id = serializers.UUIDField()
    ruleId = serializers.CharField(source="rule_id")
    name = serializers.CharField()
    description = serializers.CharField()
    category = serializers.CharField()
    ruleType = serializers.CharField(source="rule_type")
    conditions = serializers.JSONField()
    actions = serializers.JSONField()
    severity = serializers.CharField()
    isActive = serializers.BooleanField(source="is_active")
    priority = serializers.IntegerField()
    version = serializers.IntegerField()
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")


class RuleVersionOut(serializers.Serializer):
    version = serializers.IntegerField()
    snapshot = serializers.JSONField()
    changedBy = serializers.SerializerMethodField()
    createdAt = serializers.DateTimeField(source="created_at")

    def get_changedBy(self, obj) -> dict | None:
        staff = obj.changed_by
        return {"id": str(staff.pk), "email": staff.email} if staff else None
