import django_filters

from backoffice.lists.filters import ListFilterSet
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR


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
