"""Query-string filters of GET /verification/jobs: status, decision, the user, dates, sorting."""

import django_filters

from backoffice.lists.filters import ListFilterSet
from verification.choices import Decision, JobStatus
from verification.models import VerificationJob


class JobFilterSet(ListFilterSet):
    headlines = {"status": "Invalid status", "decision": "Invalid decision", "userId": "Invalid user id"}
    sort_fields = {"createdAt": "created_at", "completedAt": "completed_at", "status": "status"}

    status = django_filters.ChoiceFilter(choices=JobStatus.choices)
    decision = django_filters.ChoiceFilter(choices=Decision.choices)
    userId = django_filters.UUIDFilter(field_name="user_id")
    awaitingReview = django_filters.BooleanFilter(method="filter_awaiting")

    class Meta:
        model = VerificationJob
        fields = []

    def filter_awaiting(self, queryset, name, value):
        awaiting = {"decision": Decision.MANUAL_REVIEW, "decided_at__isnull": True}
        return queryset.filter(**awaiting) if value else queryset.exclude(**awaiting)
