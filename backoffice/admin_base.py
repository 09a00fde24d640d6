"""Pieces the admin pages of every app share."""

from django.contrib import admin, messages
from django.core.paginator import Paginator
from django.shortcuts import redirect
from django.utils.functional import cached_property
from unfold.admin import TabularInline

from backoffice.errors import DomainError
from backoffice.paging import estimated_count


class EstimatedCountPaginator(Paginator):
    """For big tables: exact counts on small results, the planner's estimate on huge ones (as the API lists)."""

    @cached_property
    def count(self):
        return estimated_count(self.object_list)


class DefaultChoiceFilter(admin.SimpleListFilter):
    """A list filter with a value chosen when the URL names none (a queue shows open work first).

    Subclasses set ``default`` (one of their lookups' values) and use ``self.current`` in ``queryset``.
    """

    default: str = ""

    @property
    def current(self) -> str:
        return self.value() or self.default

    def choices(self, changelist):
        for value, label in self.lookup_choices:
            yield {
                "selected": self.current == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }


class ReadOnlyAdminMixin:
    """For records that only services write (ledger rows, audit entries): the admin site only shows them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ServiceErrorsAdminMixin:
    """For admin pages whose ``save_model`` calls a service.

    A DomainError the service raises rolls the save back (the change view is
    atomic) and comes back as an error message on the same page, never a 500.
    """

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except DomainError as exc:
            reasons = "; ".join(f"{field}: {' '.join(texts)}" for field, texts in (exc.details or {}).items())
            self.message_user(request, f"{exc.message}{' (' + reasons + ')' if reasons else ''}", messages.ERROR)
            return redirect(request.get_full_path())


class StateHistoryInline(ReadOnlyAdminMixin, TabularInline):
    """The history of a state machine (``backoffice.models.StateChange`` rows), read-only, oldest first.

    One query for the whole history, actors included, however long it is.
    Subclasses set ``model`` (and may set ``verbose_name_plural``).
    """

    fields = ("created_at", "from_status", "to_status", "actor", "note")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    verbose_name = "change"
    verbose_name_plural = "History"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("actor").order_by("created_at", "id")
