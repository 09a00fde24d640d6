import django_filters

from backoffice.lists.filters import ListFilterSet
from compliance.reporting.choices import ThresholdReportStatus
from compliance.reporting.models import ThresholdReport


class ThresholdReportFilterSet(ListFilterSet):
    """GET /admin/aml/threshold-reports: status, userId, startDate/endDate on the report's day; sortBy."""

    sort_fields = {"createdAt": "created_at", "day": "day", "total": "total", "dueAt": "due_at"}

    status = django_filters.ChoiceFilter(choices=ThresholdReportStatus.choices)
    userId = django_filters.UUIDFilter(field_name="user_id")

    class Meta:
        model = ThresholdReport
        fields = []

    # the bounds name days (a date-time names its date): a report belongs to an Eswatini day, not a moment
    def filter_start_date(self, queryset, name, value):
        return queryset.filter(day__gte=value.date())

    def filter_end_date(self, queryset, name, value):
        return queryset.filter(day__lte=value.date())
