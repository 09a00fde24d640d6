import django_filters
from django.db.models import Case, IntegerField, Value, When

from backoffice.lists.filters import ListFilterSet, StrictBooleanFilter
from compliance.aml.choices import AlertStatus, AlertType, RuleType
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from compliance.casework.choices import Severity
from kyc.models import Transaction

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


class HeldTransactionFilterSet(ListFilterSet):
    """GET /admin/aml/held-transactions: a queue, oldest first; dates and sorting like the other lists."""

    sort_fields = {"createdAt": "created_at", "amount": "amount"}
    default_order = "asc"

    class Meta:
        model = Transaction
        fields: list[str] = []
