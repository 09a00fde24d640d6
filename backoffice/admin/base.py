"""Pieces the admin pages of every app share."""

from django.contrib import admin, messages
from django.core.paginator import Paginator
from django.shortcuts import redirect
from django.urls import path
from django.utils.functional import cached_property
from unfold.admin import TabularInline

from backoffice.errors import DomainError
from backoffice.lists.paging import estimated_count


def object_urls(model_admin, routes: dict, *, pk: str = "uuid") -> list:
    """An admin's own pages for one object, ``<pk>/<route>/``, each behind the admin site's sign-in and named
    ``<app>_<model>_<route words>`` (``"export/<str:fmt>"`` on SARs is ``compliance_sar_export``), so every
    admin names and guards them one way. ``pk`` is the primary key's path converter."""
    opts = model_admin.model._meta
    wrap = model_admin.admin_site.admin_view

    def name(route: str) -> str:
        words = [part.replace("-", "_") for part in route.split("/") if part and not part.startswith("<")]
        return f"{opts.app_label}_{opts.model_name}_{'_'.join(words)}"

    return [path(f"<{pk}:object_id>/{route}/", wrap(view), name=name(route)) for route, view in routes.items()]


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
            self.message_user(request, f"{exc.said}{' (' + reasons + ')' if reasons else ''}", messages.ERROR)
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
    # a row's columns say what it is (when, from, to, who, why): Unfold's title above each row would only repeat
    # the record's str() (issue 31: history rows titled by the UUID of the record they belong to)
    hide_title = True

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("actor").order_by("created_at", "id")


class DefaultChoiceFilter(admin.SimpleListFilter):
    """A list filter that is never "All": without a choice in the URL it applies ``default`` (and shows it chosen).

    For queues whose useful view is a subset (open alerts, credits awaiting
    approval, active users); subclasses set ``default`` and filter on
    ``self.current()``.
    """

    default = ""

    def current(self) -> str:
        return self.value() or self.default

    def choices(self, changelist):
        for value, label in self.lookup_choices:
            yield {
                "selected": self.current() == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }
