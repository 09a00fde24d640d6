"""Query-string filters of the compliance lists: SARs, AML alerts, AML rules, PEPs and PEP matches."""

import django_filters
from django import forms
from django.db.models import Case, IntegerField, Value, When

from backoffice.filters import ListFilterSet, StrictBooleanFilter
from compliance.choices import AlertStatus, AlertType, PEPCategory, PEPMatchStatus, RuleType, SARStatus, Severity
from compliance.models import PEP, SAR, Alert, AMLRule, PEPMatch
from compliance.models.pep import canonical_category


class SARFilterSet(ListFilterSet):
    """GET /admin/aml/sars: status, startDate/endDate on createdAt, and sortBy over a whitelist."""

    sort_fields = {
        "createdAt": "created_at",
        "amountInvolved": "amount_involved",
        "dateOfSuspiciousActivity": "date_of_suspicious_activity",
        "status": "status",
    }

    status = django_filters.ChoiceFilter(choices=SARStatus.choices)

    class Meta:
        model = SAR
        fields = ["status"]


# Higher is more urgent, so "sortBy=severity&sortOrder=desc" puts CRITICAL first.
SEVERITY_RANK = {Severity.LOW: 1, Severity.MEDIUM: 2, Severity.HIGH: 3, Severity.CRITICAL: 4}


def severity_rank():
    """An expression ranking alerts by severity (annotate as ``severity_rank``)."""
    return Case(
        *(When(severity=s, then=Value(r)) for s, r in SEVERITY_RANK.items()),
        default=Value(0),
        output_field=IntegerField(),
    )


class AlertFilterSet(ListFilterSet):
    """GET /admin/aml/alerts: status, severity, alertType, userId, dates; sortBy createdAt|severity."""

    sort_fields = {"createdAt": "created_at", "severity": "severity_rank"}

    status = django_filters.ChoiceFilter(choices=AlertStatus.choices)
    severity = django_filters.ChoiceFilter(choices=Severity.choices)
    alertType = django_filters.ChoiceFilter(field_name="alert_type", choices=AlertType.choices)
    userId = django_filters.UUIDFilter(field_name="user_id")

    class Meta:
        model = Alert
        fields = []


class RuleFilterSet(django_filters.FilterSet):
    """GET /admin/aml/rules: enabled (strict boolean) and ruleType (one of the 16)."""

    enabled = StrictBooleanFilter(field_name="is_active")
    ruleType = django_filters.ChoiceFilter(field_name="rule_type", choices=RuleType.choices)

    class Meta:
        model = AMLRule
        fields = []


class CategoryFormField(forms.CharField):
    """A PEP category, forgiving case, underscores and spacing; anything else is refused."""

    def to_python(self, value):
        text = super().to_python(value)
        if not text:
            return None
        category = canonical_category(text)
        if category is None:
            raise forms.ValidationError(f"Must be one of: {', '.join(PEPCategory.values)}.")
        return category


class CategoryFilter(django_filters.CharFilter):
    field_class = CategoryFormField


class PEPFilterSet(ListFilterSet):
    """GET /admin/aml/pep: status (active|inactive; both when absent), category, search, dates, sortBy."""

    sort_fields = {
        "createdAt": "created_at",
        "updatedAt": "updated_at",
        "name": "name_key",
        "category": "category",
        "country": "country",
        "position": "position",
        "isActive": "is_active",
    }

    status = django_filters.ChoiceFilter(
        choices=[("active", "active"), ("inactive", "inactive")], method="filter_status"
    )
    category = CategoryFilter(field_name="category")
    search = django_filters.CharFilter(method="filter_search")

    class Meta:
        model = PEP
        fields = []

    def filter_status(self, queryset, name, value):
        return queryset.filter(is_active=value == "active")

    def filter_search(self, queryset, name, value):
        from compliance.selectors.pep import search_q

        return queryset.filter(search_q(value)) if value.strip() else queryset


MIN_PEP_QUERY = 2


class PEPSearchFilterSet(django_filters.FilterSet):
    """GET /admin/aml/pep/search: ``q`` required, at least 2 characters."""

    q = django_filters.CharFilter(
        method="filter_noop",
        required=True,
        min_length=MIN_PEP_QUERY,
        error_messages={
            "required": "This parameter is required.",
            "min_length": f"At least {MIN_PEP_QUERY} characters.",
        },
    )
    headlines = {
        "q": {
            "required": "Search query is required",
            "min_length": f"Search query must be at least {MIN_PEP_QUERY} characters",
        }
    }

    class Meta:
        model = PEP
        fields = []

    def filter_noop(self, queryset, name, value):
        return queryset


class PEPMatchFilterSet(ListFilterSet):
    """GET /admin/aml/pep/matches: userId, pepId, status; dates; sortBy createdAt|score|status."""

    sort_fields = {"createdAt": "created_at", "updatedAt": "updated_at", "score": "score", "status": "status"}

    userId = django_filters.UUIDFilter(field_name="user_id")
    pepId = django_filters.UUIDFilter(field_name="pep_id")
    status = django_filters.ChoiceFilter(choices=PEPMatchStatus.choices)

    class Meta:
        model = PEPMatch
        fields = []
