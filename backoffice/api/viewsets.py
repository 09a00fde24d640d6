"""The one base of every API resource.

``ApiViewSet`` carries what all resources share, so a resource's viewset
names only its queryset, serializers, filterset and capability table:

* the capability table (``capabilities = {action: capability}``, closed by
  default; ``backoffice.api.permissions.RolePermission`` reads it);
* filters, sorting and the date range through the resource's filterset
  (``backoffice.lists.filters.ListFilterSet``) and ``FilterBackend``;
* pagination in the contract's envelope (``EnvelopePagination``, or a named
  class for a list with its own shape);
* input: ``self.input(Serializer)`` returns the validated body in domain
  names, and a domain error a service raises afterwards names the fields the
  way the client sent them;
* the success envelope (``self.ok``).
"""

from rest_framework import viewsets

from backoffice.api import inputs
from backoffice.api.envelope import ok
from backoffice.errors import DomainError

# an action that answers one object: no list filters or paging apply to it (``@action(..., **SINGLE)``)
SINGLE = {"filter_backends": [], "pagination_class": None}


class ApiViewSet(viewsets.GenericViewSet):
    capabilities: dict[str, str] = {}
    # False on an action whose body is a file, not the JSON envelope (``@action(..., envelope=False)``)
    envelope = True
    _input_serializer = None

    def input(self, serializer_class, *, data=None, **context) -> dict:
        """The request body through ``serializer_class``: validated, in domain names, or one 400."""
        self._input_serializer = serializer_class
        body = self.request.data if data is None else data
        return inputs.validated(serializer_class, body, context={"request": self.request, **context})

    def query(self, serializer_class) -> dict:
        """The query string through ``serializer_class`` (for parameters that are not list filters)."""
        return self.input(serializer_class, data=self.request.query_params)

    def paged(self, queryset, serializer_class, **context):
        """One page of ``queryset`` after the resource's filters, serialized, in the list envelope."""
        page = self.paginate_queryset(self.filter_queryset(queryset))
        data = serializer_class(page, many=True, context={"request": self.request, **context}).data
        return self.get_paginated_response(data)

    @staticmethod
    def ok(data=None, *, message: str | None = None, status: int = 200, headers=None):
        return ok(data, message=message, status=status, headers=headers)

    def handle_exception(self, exc):
        if isinstance(exc, DomainError) and exc.details and self._input_serializer is not None:
            exc.details = inputs.rename_details(exc.details, inputs.api_names(self._input_serializer))
        return super().handle_exception(exc)
