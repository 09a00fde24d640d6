import django_filters

from backoffice.lists.filters import ListFilterSet, StrictBooleanFilter
from compliance.sanctions.choices import EntryType
from compliance.sanctions.models import SanctionsEntry
from compliance.sanctions.selectors.lists import entry_search


class SanctionsEntryFilterSet(ListFilterSet):
    """GET /admin/aml/sanctions/entries: list (code), type, search (names and aliases, or the reference),
    includeRemoved (active entries only unless true), dates, sortBy."""

    sort_fields = {
        "createdAt": "created_at",
        "updatedAt": "updated_at",
        "name": "name",
        "reference": "reference",
        "listedOn": "listed_on",
        "type": "entry_type",
    }

    list = django_filters.CharFilter(field_name="sanctions_list__code", method="filter_list")
    type = django_filters.ChoiceFilter(field_name="entry_type", choices=EntryType.choices)
    search = django_filters.CharFilter(method="filter_search")
    includeRemoved = StrictBooleanFilter(method="filter_noop")  # applied in filter_queryset: absent is false

    class Meta:
        model = SanctionsEntry
        fields = []

    def filter_queryset(self, queryset):
        if not self.form.cleaned_data.get("includeRemoved"):
            queryset = queryset.filter(removed_at__isnull=True)
        return super().filter_queryset(queryset)

    def filter_list(self, queryset, name, value):
        return queryset.filter(sanctions_list__code=value.strip().upper()) if value.strip() else queryset

    def filter_search(self, queryset, name, value):
        return entry_search(queryset, value)
