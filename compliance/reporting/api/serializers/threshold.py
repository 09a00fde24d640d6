"""Threshold report shapes (contract: cash threshold reports): the report, the batch, the bodies they take."""

from rest_framework import serializers

from backoffice.api.serializers import MoneyField, RejectUnknownFieldsMixin
from compliance.reporting.deadlines import report_overdue
from compliance.reporting.services.threshold import FIU_REFERENCE_MAX, REASON_MAX


class ReportUserOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class ThresholdReportOut(serializers.Serializer):
    id = serializers.UUIDField()
    user = ReportUserOut()
    day = serializers.DateField()
    total = MoneyField()
    transactionIds = serializers.SerializerMethodField()
    status = serializers.CharField()
    batchId = serializers.UUIDField(source="batch_id", allow_null=True)
    fiuReason = serializers.SerializerMethodField()
    dueAt = serializers.DateTimeField(source="due_at")
    overdue = serializers.SerializerMethodField()

    def get_transactionIds(self, report) -> list[str]:
        # the selector prefetches them: no query per report
        return [str(tx.pk) for tx in report.transactions.all()]

    def get_fiuReason(self, report) -> str | None:
        return report.fiu_reason or None

    def get_overdue(self, report) -> bool:
        return report_overdue(report)


class BatchOut(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.CharField()
    reportIds = serializers.SerializerMethodField()
    createdBy = serializers.UUIDField(source="created_by_id")
    createdAt = serializers.DateTimeField(source="created_at")
    submittedBy = serializers.UUIDField(source="submitted_by_id", allow_null=True)
    submittedAt = serializers.DateTimeField(source="submitted_at", allow_null=True)
    fiuReference = serializers.SerializerMethodField()

    def get_reportIds(self, batch) -> list[str]:
        return [str(f.report_id) for f in batch.filings.all()]

    def get_fiuReference(self, batch) -> str | None:
        return batch.fiu_reference or None


class BatchSubmitIn(RejectUnknownFieldsMixin, serializers.Serializer):
    fiuReference = serializers.CharField(source="fiu_reference", max_length=FIU_REFERENCE_MAX)


class FiuResponseIn(RejectUnknownFieldsMixin, serializers.Serializer):
    accepted = serializers.BooleanField()
    reason = serializers.CharField(max_length=REASON_MAX, required=False, allow_blank=True, allow_null=True)

    def validate_accepted(self, value):
        # "accepted": "no" or 0 would read as a boolean; the unit's answer is a JSON boolean only
        if not isinstance(self.initial_data.get("accepted"), bool):
            raise serializers.ValidationError("Must be true or false.")
        return value
