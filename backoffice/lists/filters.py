"""Reusable list filters: strict booleans, date bounds and whitelisted sorting.

``ListFilterSet`` is the base of every list's filterset: it adds
``startDate``/``endDate`` (inclusive bounds on ``created_at``; a bare date is
the whole UTC day) and ``sortBy``/``sortOrder`` over the subclass's
``sort_fields`` whitelist (default ``createdAt`` descending). Bad values are
400s through django-filter's form validation.
"""

import datetime as dt

import django_filters
from django import forms
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field

TRUE_VALUES = {"true", "1"}
FALSE_VALUES = {"false", "0"}


class StrictBooleanField(forms.Field):
    def to_python(self, value):
        if value in (None, ""):
            return None
        text = str(value).strip().lower()
        if text in TRUE_VALUES:
            return True
        if text in FALSE_VALUES:
            return False
        raise forms.ValidationError("Must be true, false, 1 or 0.")


@extend_schema_field({"type": "boolean", "description": "true, false, 1 or 0"})
class StrictBooleanFilter(django_filters.Filter):
    field_class = StrictBooleanField


def parse_date_bound(text: str, *, end: bool) -> dt.datetime:
    """An ISO date or date-time as an aware UTC datetime; a bare date covers the whole day."""
    text = text.strip()
    if len(text) == 10:
        day = dt.date.fromisoformat(text)
        moment = dt.datetime.combine(day, dt.time.max if end else dt.time.min)
        return moment.replace(tzinfo=dt.UTC)
    moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if timezone.is_naive(moment):
        moment = moment.replace(tzinfo=dt.UTC)
    return moment


class DateBoundField(forms.Field):
    def __init__(self, *args, end=False, **kwargs):
        self.end = end
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        if value in (None, ""):
            return None
        try:
            return parse_date_bound(str(value), end=self.end)
        except ValueError:
            raise forms.ValidationError("Must be an ISO date (YYYY-MM-DD) or date-time.") from None


@extend_schema_field(
    {"type": "string", "description": "ISO date (a whole UTC day) or date-time", "example": "2026-11-21"}
)
class DateBoundFilter(django_filters.Filter):
    field_class = DateBoundField

    def __init__(self, *args, end=False, **kwargs):
        kwargs.setdefault("lookup_expr", "lte" if end else "gte")
        super().__init__(*args, end=end, **kwargs)


class ListFilterSet(django_filters.FilterSet):
    """Base filterset for the general lists; subclasses set ``sort_fields``."""

    # API name -> model field
    sort_fields: dict[str, str] = {"createdAt": "created_at"}
    default_sort = "createdAt"
    # a queue (held transactions) reads oldest first
    default_order = "desc"
    date_field = "created_at"

    startDate = DateBoundFilter(method="filter_start_date")
    endDate = DateBoundFilter(method="filter_end_date", end=True)
    sortBy = django_filters.CharFilter(method="filter_noop")
    sortOrder = django_filters.ChoiceFilter(choices=[("asc", "asc"), ("desc", "desc")], method="filter_noop")

    def filter_start_date(self, queryset, name, value):
        return queryset.filter(**{f"{self.date_field}__gte": value})

    def filter_end_date(self, queryset, name, value):
        return queryset.filter(**{f"{self.date_field}__lte": value})

    def filter_noop(self, queryset, name, value):
        return queryset

    def is_valid(self):
        valid = super().is_valid()
        sort_by = self.data.get("sortBy")
        if sort_by not in (None, "") and sort_by not in self.sort_fields:
            self.form.add_error("sortBy", f"Must be one of: {', '.join(sorted(self.sort_fields))}.")
            return False
        return valid

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        sort_by = self.form.cleaned_data.get("sortBy") or self.default_sort
        order = self.form.cleaned_data.get("sortOrder") or self.default_order
        field = self.sort_fields[sort_by]
        prefix = "-" if order == "desc" else ""
        # a unique tie-breaker keeps pages stable when sort values repeat
        return queryset.order_by(f"{prefix}{field}", f"{prefix}pk")
