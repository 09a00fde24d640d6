"""AML alert shapes: the triage record, one alert with its history, the status, assignee and bulk bodies."""

from rest_framework import serializers

from backoffice.api.serializers import CamelKeysJSONField
from backoffice.limits import NOTE_MAX_LENGTH
from compliance.aml.choices import OFFICER_CLOSE_REASONS, OFFICER_STATUSES
from compliance.aml.services.alerts import BULK_MAX, BulkAction
from compliance.casework.api.serializers.deadlines import AlertDueAtField, AlertPriorityField


class AlertRuleOut(serializers.Serializer):
    ruleId = serializers.CharField(source="rule_id")
    name = serializers.CharField()


class AlertUserOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class StaffRefOut(serializers.Serializer):
    id = serializers.UUIDField()
    email = serializers.EmailField()


class AssigneeOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class AlertOut(serializers.Serializer):
    id = serializers.UUIDField()
    alertType = serializers.CharField(source="alert_type")
    rule = AlertRuleOut(allow_null=True)
    ruleVersion = serializers.IntegerField(source="rule_version", allow_null=True)
    user = AlertUserOut()
    severity = serializers.CharField()
    status = serializers.CharField()
    details = CamelKeysJSONField()
    relatedTransactionIds = serializers.SerializerMethodField()
    assignee = AssigneeOut(source="assigned_to", allow_null=True)
    assignedTo = StaffRefOut(source="assigned_to", allow_null=True)
    dueAt = AlertDueAtField()
    priority = AlertPriorityField()
    closeReasonCode = serializers.CharField(source="close_reason_code", allow_null=True)
    closedAt = serializers.DateTimeField(source="closed_at", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")

    def get_relatedTransactionIds(self, obj) -> list[str]:
        # relies on the selector's prefetch: no query per alert
        return sorted(str(tx.pk) for tx in obj.related_transactions.all())

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["closeReasonCode"] = data["closeReasonCode"] or None
        return data


class AlertEventOut(serializers.Serializer):
    fromStatus = serializers.CharField(source="from_status")
    toStatus = serializers.CharField(source="to_status")
    note = serializers.CharField()
    reasonCode = serializers.CharField(source="reason_code")
    actor = StaffRefOut(allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")


class AlertDetailOut(AlertOut):
    events = AlertEventOut(many=True)


class AlertStatusIn(serializers.Serializer):
    status = serializers.ChoiceField(choices=OFFICER_STATUSES, source="to_status")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX_LENGTH)
    reasonCode = serializers.ChoiceField(
        choices=OFFICER_CLOSE_REASONS,
        required=False,
        allow_blank=True,
        allow_null=True,
        default="",
        source="reason_code",
    )
    headlines = {"reasonCode": "Invalid reason code"}


class AlertAssigneeIn(serializers.Serializer):
    assigneeId = serializers.UUIDField(allow_null=True, source="assignee_id")


class AlertBulkIn(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.CharField(max_length=64), min_length=1, max_length=BULK_MAX, source="alert_ids"
    )
    action = serializers.ChoiceField(choices=[a.value for a in BulkAction])
    assigneeId = serializers.UUIDField(required=False, allow_null=True, source="assignee_id")
    reasonCode = serializers.ChoiceField(
        choices=OFFICER_CLOSE_REASONS,
        required=False,
        allow_blank=True,
        allow_null=True,
        default="",
        source="reason_code",
    )
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX_LENGTH)
    headlines = {
        "ids": {"max_length": f"At most {BULK_MAX} alerts at once"},
        "reasonCode": "Invalid reason code",
    }

    def validate(self, attrs):
        if attrs["action"] == BulkAction.ASSIGN and "assignee_id" not in attrs:
            raise serializers.ValidationError({"assigneeId": "Required for assign (null unassigns)."})
        return attrs


class BulkErrorOut(serializers.Serializer):
    id = serializers.CharField()
    message = serializers.CharField()


class AlertBulkOut(serializers.Serializer):
    updated = serializers.IntegerField()
    failed = serializers.IntegerField()
    errors = serializers.SerializerMethodField()

    def get_errors(self, result) -> list[dict]:
        return [{"id": pk, "message": message} for pk, message in result.errors]
