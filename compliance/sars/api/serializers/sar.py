"""JSON shapes of /admin/aml/sars: camelCase, money as numbers with two decimals, dates YYYY-MM-DD."""

from decimal import Decimal

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

from backoffice.api.serializers import MoneyField, RejectUnknownFieldsMixin
from compliance.casework.api.serializers.deadlines import SARDueAtField, SARPriorityField
from compliance.sars.choices import ActivityType, SARStatus


class SARCreateIn(serializers.Serializer):
    entityUserId = serializers.UUIDField(source="entity_user_id")
    suspiciousActivityType = serializers.ChoiceField(choices=ActivityType.values, source="suspicious_activity_type")
    activityDescription = serializers.CharField(max_length=20000, source="activity_description")
    dateOfSuspiciousActivity = serializers.DateField(input_formats=["%Y-%m-%d"], source="date_of_suspicious_activity")
    amountInvolved = MoneyField(min_value=Decimal("0"), source="amount_involved")
    relatedTransactionIds = serializers.ListField(
        child=serializers.UUIDField(), required=False, default=list, max_length=1000, source="related_transaction_ids"
    )
    relatedAlertIds = serializers.ListField(
        child=serializers.UUIDField(), required=False, default=list, max_length=1000, source="related_alert_ids"
    )
    # the API lets a client name the filer, but only as itself (checked by the view): the service takes the actor
    filedById = serializers.CharField(required=False, allow_null=True, allow_blank=True, source="filed_by_id")

    def validate_amountInvolved(self, value):
        # JSON booleans are numbers to Python; true must not become 1.00
        if isinstance(self.initial_data.get("amountInvolved"), bool):
            raise serializers.ValidationError("A valid number is required.")
        return value

    def validate_dateOfSuspiciousActivity(self, value):
        if value > timezone.now().date():
            raise serializers.ValidationError("Cannot be in the future.")
        return value


# Kept inline (allOf) instead of becoming a shared "StatusEnum" component, whose name
# other resources' status fields (alerts, health) would collide with.
@extend_schema_field({"allOf": [{"type": "string", "enum": SARStatus.values}], "description": "SAR status"})
class SARStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(choices=SARStatus.values, **kwargs)


class SARStatusIn(serializers.Serializer):
    status = SARStatusField()
    reviewedBy = serializers.CharField(required=False, allow_null=True, allow_blank=True, source="reviewed_by")
    approvedBy = serializers.CharField(required=False, allow_null=True, allow_blank=True, source="approved_by")
    note = serializers.CharField(required=False, allow_blank=True, max_length=5000, default="")
    fiuReference = serializers.CharField(
        required=False, allow_blank=True, max_length=64, default="", source="fiu_reference"
    )


class SAROut(serializers.Serializer):
    """The fields every SAR response carries."""

    id = serializers.UUIDField()
    sarId = serializers.CharField(source="sar_id")
    status = serializers.CharField()
    suspiciousActivityType = serializers.CharField(source="suspicious_activity_type")
    activityDescription = serializers.CharField(source="activity_description")
    dateOfSuspiciousActivity = serializers.DateField(source="date_of_suspicious_activity")
    amountInvolved = MoneyField(source="amount_involved")
    draftedAt = serializers.DateTimeField(source="drafted_at")
    createdAt = serializers.DateTimeField(source="created_at")
    dueAt = SARDueAtField()
    priority = SARPriorityField()


class SARCreatedOut(SAROut):
    entityUserId = serializers.UUIDField(source="entity_user_id")
    relatedTransactionIds = serializers.SerializerMethodField()
    relatedAlertIds = serializers.SerializerMethodField()
    filedById = serializers.UUIDField(source="filed_by_id", allow_null=True)

    def get_relatedTransactionIds(self, sar) -> list[str]:
        return [str(pk) for pk in sar.related_transactions.values_list("pk", flat=True)]

    def get_relatedAlertIds(self, sar) -> list[str]:
        return [str(pk) for pk in sar.related_alerts.values_list("pk", flat=True)]


class SARStatusOut(serializers.Serializer):
    id = serializers.UUIDField()
    sarId = serializers.CharField(source="sar_id")
    status = serializers.CharField()
    reviewedAt = serializers.DateTimeField(source="reviewed_at", allow_null=True)
    reviewedBy = serializers.UUIDField(source="reviewed_by_id", allow_null=True)
    approvedAt = serializers.DateTimeField(source="approved_at", allow_null=True)
    approvedBy = serializers.UUIDField(source="approved_by_id", allow_null=True)
    submittedAt = serializers.DateTimeField(source="submitted_at", allow_null=True)


class SARSubjectOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    email = serializers.CharField()
    phoneNumber = serializers.CharField(source="phone_number")


class SARFilerOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    email = serializers.CharField()


class SARListItemOut(SAROut):
    entityUser = SARSubjectOut(source="entity_user")
    filedBy = SARFilerOut(source="filed_by", allow_null=True)


class SARUpdateIn(RejectUnknownFieldsMixin, SARCreateIn):
    """PATCH of a DRAFT: the create fields a draft may change, each optional, checked alike; any other field 400."""

    entityUserId = None
    filedById = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():  # absent means unchanged: no field is required, none has a default
            field.required = False
            field.default = empty

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError("Name at least one field to change.")
        return attrs


class SARReturnIn(serializers.Serializer):
    reason = serializers.CharField(max_length=5000)


class SARFiuResponseIn(RejectUnknownFieldsMixin, serializers.Serializer):
    """The unit's answer to a submitted SAR: accepted, or rejected with its reason; its reference if it gave one."""

    accepted = serializers.BooleanField()
    reason = serializers.CharField(max_length=5000, required=False, allow_blank=True, allow_null=True)
    fiuReference = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, max_length=64, source="fiu_reference"
    )

    def validate_accepted(self, value):
        if not isinstance(self.initial_data.get("accepted"), bool):
            raise serializers.ValidationError("Must be true or false.")
        return value


class SARFiuOut(SARStatusOut):
    fiuOutcome = serializers.SerializerMethodField()
    fiuReason = serializers.SerializerMethodField()
    fiuReference = serializers.SerializerMethodField()
    fiuAnsweredAt = serializers.DateTimeField(source="fiu_answered_at", allow_null=True)

    def get_fiuOutcome(self, sar) -> str | None:
        return sar.fiu_outcome or None

    def get_fiuReason(self, sar) -> str | None:
        return sar.fiu_reason or None

    def get_fiuReference(self, sar) -> str | None:
        return sar.fiu_reference or None


class SARCorrectionOut(SARCreatedOut):
    correctsSarId = serializers.CharField(source="corrects.sar_id")
