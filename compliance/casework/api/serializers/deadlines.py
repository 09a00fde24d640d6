"""``dueAt`` and ``priority`` of alerts and SARs (compliance.casework.deadlines), as serializer fields."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from compliance.casework import deadlines
from compliance.casework.choices import Priority

_datetime = serializers.DateTimeField()
PRIORITY_SCHEMA = {"type": "string", "enum": Priority.values, "description": "Share of the deadline spent"}


@extend_schema_field({"type": "string", "format": "date-time"})
class AlertDueAtField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, alert):
        return _datetime.to_representation(deadlines.alert_due_at(alert))


@extend_schema_field(PRIORITY_SCHEMA)
class AlertPriorityField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, alert):
        return str(deadlines.alert_priority(alert))


def _sar_detected_at(sar):
    # both fields need it; without the list's annotation it costs a query, so once per SAR
    if "_detected_at" not in sar.__dict__:
        sar.__dict__["_detected_at"] = deadlines.sar_detected_at(sar)
    return sar.__dict__["_detected_at"]


@extend_schema_field({"type": "string", "format": "date-time"})
class SARDueAtField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, sar):
        return _datetime.to_representation(deadlines.sar_due_at(detected_at=_sar_detected_at(sar)))


@extend_schema_field(PRIORITY_SCHEMA)
class SARPriorityField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, sar):
        return str(deadlines.sar_priority(sar, detected_at=_sar_detected_at(sar)))
