"""AML rule shapes: the record clients read, and the create/update bodies."""

import datetime as dt

from rest_framework import serializers

from backoffice.api.serializers import (
    BoundedJSONField,
    BoundedJSONObjectField,
    CamelKeysJSONField,
    RejectUnknownFieldsMixin,
)
from backoffice.limits import NOTE_MAX_LENGTH
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
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=NOTE_MAX_LENGTH,
        help_text="Why the rule changes (kept with the version)",
    )


class RuleToggleIn(serializers.Serializer):
    """The toggle's optional body; other fields are ignored, as the interface's toggle takes no body."""

    reason = serializers.CharField(required=False, allow_blank=True, max_length=NOTE_MAX_LENGTH)


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


def staff_ref(staff) -> dict | None:
    return {"id": str(staff.pk), "email": staff.email} if staff else None


class RuleVersionOut(serializers.Serializer):
    """One version: its parameters, who proposed it (changedBy, proposedBy), who approved it, when and why."""

    version = serializers.IntegerField()
    # stored with the model's field names; answered with the interface's, the conditions as the client wrote them
    snapshot = CamelKeysJSONField(depth=1)
    conditions = serializers.SerializerMethodField()
    severity = serializers.SerializerMethodField()
    actions = serializers.SerializerMethodField()
    isActive = serializers.SerializerMethodField()
    changedBy = serializers.SerializerMethodField()
    proposedBy = serializers.SerializerMethodField()
    approvedBy = serializers.SerializerMethodField()
    approvedAt = serializers.DateTimeField(source="approved_at", allow_null=True)
    reason = serializers.CharField()
    createdAt = serializers.DateTimeField(source="created_at")
    changes = serializers.SerializerMethodField(help_text="What differs from the version before, field by field")

    def get_changes(self, obj) -> list[dict]:
        diff = self.context.get("changes", {}).get(obj.pk, [])
        return [{"field": what, "from": was, "to": now} for what, was, now in diff]

    def get_conditions(self, obj) -> dict | None:
        return obj.snapshot.get("conditions")

    def get_severity(self, obj) -> str | None:
        return obj.snapshot.get("severity")

    def get_actions(self, obj) -> dict | None:
        return obj.snapshot.get("actions")

    def get_isActive(self, obj) -> bool | None:
        return obj.snapshot.get("is_active")

    def get_changedBy(self, obj) -> dict | None:
        return staff_ref(obj.changed_by)

    def get_proposedBy(self, obj) -> dict | None:
        return staff_ref(obj.changed_by)

    def get_approvedBy(self, obj) -> dict | None:
        return staff_ref(obj.approved_by)


class ProposalOut(serializers.Serializer):
    """A rule change waiting for (or decided by) a second person."""

    id = serializers.UUIDField()
    ruleId = serializers.CharField(source="rule.rule_id")
    baseVersion = serializers.IntegerField(source="base_version")
    changes = serializers.JSONField(source="api_changes")
    reason = serializers.CharField()
    status = serializers.CharField()
    proposedBy = serializers.SerializerMethodField()
    proposedAt = serializers.DateTimeField(source="created_at")
    decidedBy = serializers.SerializerMethodField()
    decidedAt = serializers.DateTimeField(source="decided_at", allow_null=True)
    decisionReason = serializers.CharField(source="decision_reason")
    version = serializers.IntegerField(source="resulting_version", allow_null=True)

    def get_proposedBy(self, obj) -> dict | None:
        return staff_ref(obj.proposed_by)

    def get_decidedBy(self, obj) -> dict | None:
        return staff_ref(obj.decided_by)


class ProposalDecisionIn(RejectUnknownFieldsMixin, serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=NOTE_MAX_LENGTH, default="")


class ProposalRejectIn(RejectUnknownFieldsMixin, serializers.Serializer):
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH)


class BacktestIn(RejectUnknownFieldsMixin, serializers.Serializer):
    """A past window of the ledger, and optionally the conditions to try instead of the rule's own."""

    from_ = serializers.DateTimeField(source="since")
    to = serializers.DateTimeField(source="until")
    conditions = BoundedJSONField(required=False)

    def get_fields(self):
        fields = super().get_fields()
        # "from" is a Python keyword: declared as from_, named "from" on the wire
        fields["from"] = fields.pop("from_")
        return fields

    def validate(self, attrs):
        raw_to = self.initial_data.get("to") if hasattr(self.initial_data, "get") else None
        if isinstance(raw_to, str) and len(raw_to.strip()) == 10:
            # a bare date as the end means the whole of that day
            attrs["until"] = attrs["until"] + dt.timedelta(days=1) - dt.timedelta(microseconds=1)
        if attrs["since"] > attrs["until"]:
            raise serializers.ValidationError({"to": ["Must not be before from."]})
        return attrs


class SnoozeIn(RejectUnknownFieldsMixin, serializers.Serializer):
    userId = serializers.UUIDField(source="user_id")
    expiresAt = serializers.DateTimeField(source="expires_at")
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH)


class SnoozeOut(serializers.Serializer):
    id = serializers.IntegerField()
    ruleId = serializers.CharField(source="rule.rule_id")
    userId = serializers.UUIDField(source="user_id")
    reason = serializers.CharField()
    expiresAt = serializers.DateTimeField(source="expires_at")
    endedAt = serializers.DateTimeField(source="ended_at", allow_null=True)
    inForce = serializers.BooleanField(source="in_force")
    createdBy = serializers.SerializerMethodField()
    createdAt = serializers.DateTimeField(source="created_at")

    def get_createdBy(self, obj) -> dict | None:
        return staff_ref(obj.created_by)
