"""Pieces the admin pages of every app share."""

from django.core.paginator import Paginator
from django.utils.functional import cached_property

from backoffice.api.pagination import estimated_count


class EstimatedCountPaginator(Paginator):
    """For big tables: exact counts on small results, the planner's estimate on huge ones (as the API lists)."""

    @cached_property
    def count(self):
        return estimated_count(self.object_list)


class ReadOnlyAdminMixin:
    """For records that only services write (ledger rows, audit entries): the admin site only shows them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
