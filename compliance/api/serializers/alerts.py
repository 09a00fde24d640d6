"""AML alert shapes: the triage record, one alert with its history, and the status body."""

from rest_framework import serializers

from compliance.choices import AlertStatus


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


class AlertOut(serializers.Serializer):
    id = serializers.UUIDField()
    alertType = serializers.CharField(source="alert_type")
    rule = AlertRuleOut(allow_null=True)
    ruleVersion = serializers.IntegerField(source="rule_version", allow_null=True)
    user = AlertUserOut()
    severity = serializers.CharField()
    status = serializers.CharField()
    details = serializers.JSONField()
    relatedTransactionIds = serializers.SerializerMethodField()
    assignedTo = StaffRefOut(source="assigned_to", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")

    def get_relatedTransactionIds(self, obj) -> list[str]:
        # relies on the selector's prefetch: no query per alert
        return sorted(str(tx.pk) for tx in obj.related_transactions.all())


class AlertEventOut(serializers.Serializer):
    fromStatus = serializers.CharField(source="from_status")
    toStatus = serializers.CharField(source="to_status")
    note = serializers.CharField()
    actor = StaffRefOut(allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")


class AlertDetailOut(AlertOut):
    events = AlertEventOut(many=True)


class AlertStatusIn(serializers.Serializer):
    status = serializers.ChoiceField(choices=AlertStatus.choices, source="to_status")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
