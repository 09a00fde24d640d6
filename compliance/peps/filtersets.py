import django_filters
from django import forms

from backoffice.lists.filters import ListFilterSet
from compliance.peps.choices import PEPCategory, PEPMatchStatus
from compliance.peps.models.pep import PEP, PEPMatch, canonical_category
from compliance.peps.selectors.pep import search_q


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
