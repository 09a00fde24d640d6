"""AML rule shapes: the record clients read, and the create/update bodies."""

from rest_framework import serializers

from backoffice.api.serializers import BoundedJSONField, BoundedJSONObjectField, RejectUnknownFieldsMixin
from compliance.aml.models.rules import AMLRule
from compliance.casework.choices import Severity


class PriorityField(serializers.IntegerField):
    """An integer from 0 to 1000, given as a JSON number (a whole float such as 5.0 is fine, "5" or 5.5 are not)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", AMLRule.MAX_PRIORITY)
        kwargs.setdefault("help_text", "Integer from 0 to 1000")
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (int, float)) or int(data) != data:
            self.fail("invalid")
        return super().to_internal_value(int(data))


class StrictBoolean(serializers.BooleanField):
    """JSON true/false only: a string "false" must not become True, nor be guessed at."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)


PRIORITY_ERRORS = {
    "invalid": "Must be an integer from 0 to 1000.",
    "min_value": "Must be an integer from 0 to 1000.",
    "max_value": "Must be an integer from 0 to 1000.",
}


class RuleCreateIn(RejectUnknownFieldsMixin, serializers.Serializer):
    headlines = {"priority": "Invalid priority value"}

    ruleId = serializers.RegexField(
        r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$",
        max_length=64,
        error_messages={"invalid": "Letters, digits and - _ . : only, up to 64."},
        source="rule_id",
    )
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    category = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
    conditions = BoundedJSONField()
    actions = BoundedJSONObjectField(required=False, default=dict)
    severity = serializers.ChoiceField(choices=Severity.choices, required=False, default=Severity.MEDIUM)
    isActive = StrictBoolean(required=False, default=False, source="is_active")
    priority = PriorityField(required=False, default=100, error_messages=PRIORITY_ERRORS)


class RuleUpdateIn(RejectUnknownFieldsMixin, serializers.Serializer):
    headlines = {"priority": "Invalid priority value"}

    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    category = serializers.CharField(max_length=64, required=False, allow_blank=True)
    conditions = BoundedJSONField(required=False)
    actions = BoundedJSONObjectField(required=False)
    severity = serializers.ChoiceField(choices=Severity.choices, required=False)
    isActive = StrictBoolean(required=False, source="is_active")
    priority = PriorityField(required=False, error_messages=PRIORITY_ERRORS)


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
