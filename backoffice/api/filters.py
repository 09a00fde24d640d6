"""The filter backend of every list: a filterset's refusal is one 400 in the envelope, with its headline."""

from django_filters.rest_framework import DjangoFilterBackend

from backoffice.api.inputs import filterset_errors, input_error


class FilterBackend(DjangoFilterBackend):
    def filter_queryset(self, request, queryset, view):
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        if not filterset.is_valid():
            raise input_error(filterset, filterset_errors(filterset))
        return filterset.qs
