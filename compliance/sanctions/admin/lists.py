"""The sanctions pages of the admin site: the lists and their versions with the deltas, the entries with
their history, and importing a file (upload, progress while it runs, the answer).

Everything here is read-only but the import, which goes through ``sanctions_import_start`` (the same
``sanctions_import`` as the API and the command, on a worker or a thread). Holders of ``sanctions.read`` see
the pages; only ``sanctions.import`` (MLROs, admins) imports.
"""

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from unfold.admin import ModelAdmin, TabularInline
from unfold.decorators import action, display

from backoffice.admin.base import EstimatedCountPaginator, ReadOnlyAdminMixin
from backoffice.admin.fields import Badge
from backoffice.errors import DomainError
from compliance.sanctions.choices import EntryType, ImportStatus
from compliance.sanctions.models import (
    ListVersion,
    SanctionsEntry,
    SanctionsEntryChange,
    SanctionsImport,
    SanctionsList,
)
from compliance.sanctions.models.lists import list_code_problem
from compliance.sanctions.selectors.lists import entry_search, import_get, recent_imports
from compliance.sanctions.services.background import import_progress, sanctions_import_start
from compliance.sanctions.services.imports import MAX_FILE_BYTES, SourceFile

KIND_LABELS = {"ADDED": "success", "CHANGED": "warning", "REMOVED": "danger"}


def _may(request, capability: str) -> bool:
    user = request.user
    return bool(getattr(user, "is_authenticated", False) and user.has_capability(capability))


class SanctionsReadAdmin(ReadOnlyAdminMixin, ModelAdmin):
    """Seen by the holders of ``sanctions.read`` (compliance officers, MLROs, admins); written by imports only."""

    def has_module_permission(self, request):
        return _may(request, "sanctions.read")

    def has_view_permission(self, request, obj=None):
        return _may(request, "sanctions.read")


# ---------------------------------------------------------------- lists and their versions


class VersionInline(ReadOnlyAdminMixin, TabularInline):
    model = ListVersion
    fields = (
        "number",
        "imported_at",
        "imported_by",
        "files",
        "entries",
        "added",
        "changed",
        "removed",
        "unchanged",
        "changes_link",
    )
    readonly_fields = fields
    ordering = ("-number",)
    extra = 0
    show_change_link = True
    verbose_name_plural = "Versions (newest first) and their deltas"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("imported_by")

    @display(description="Files")
    def files(self, obj):
        return ", ".join(obj.source_files)

    @display(description="What changed")
    def changes_link(self, obj):
        url = reverse("admin:compliance_sanctionsentrychange_changelist") + f"?version__id__exact={obj.pk}"
        return format_html('<a href="{}">entries added, changed, removed</a>', url)


@admin.register(SanctionsList)
class SanctionsListAdmin(SanctionsReadAdmin):
    list_display = (
        "code",
        "format",
        "active_entries",
        "individuals",
        "entities",
        "version_number",
        "imported_at",
        "imported_by",
        "sha_short",
    )
    list_select_related = ("current_version", "current_version__imported_by")
    fields = ("code", "name", "format", "version_number", "imported_at", "imported_by", "sha256", "revision")
    readonly_fields = fields
    inlines = [VersionInline]
    actions_list = ["import_file"]

    def get_queryset(self, request):
        active = Q(entries__removed_at__isnull=True)
        return (
            super()
            .get_queryset(request)
            .annotate(
                active_total=Count("entries", filter=active),
                individual_total=Count("entries", filter=active & Q(entries__entry_type=EntryType.INDIVIDUAL)),
                entity_total=Count("entries", filter=active & Q(entries__entry_type=EntryType.ENTITY)),
            )
        )

    @display(description="Active entries", ordering="active_total")
    def active_entries(self, obj):
        return obj.active_total

    @display(description="Individuals")
    def individuals(self, obj):
        return obj.individual_total

    @display(description="Entities")
    def entities(self, obj):
        return obj.entity_total

    @display(description="Version")
    def version_number(self, obj):
        return obj.current_version.number if obj.current_version else "-"

    @display(description="Imported at")
    def imported_at(self, obj):
        return obj.current_version.imported_at if obj.current_version else "-"

    @display(description="Imported by")
    def imported_by(self, obj):
        version = obj.current_version
        return (version.imported_by or "system") if version else "-"

    @display(description="SHA-256")
    def sha256(self, obj):
        return obj.current_version.sha256 if obj.current_version else "-"

    @display(description="SHA-256")
    def sha_short(self, obj):
        return obj.current_version.sha256[:12] if obj.current_version else "-"

    # ------------------------------------------------------------ import

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("import/", wrap(self.import_view), name="compliance_sanctions_import"),
            path("import/<uuid:import_id>/", wrap(self.progress_view), name="compliance_sanctions_import_progress"),
            *super().get_urls(),
        ]

    @action(description="Import a file", url_path="import-file", icon="upload_file", permissions=["import_file"])
    def import_file(self, request):
        return HttpResponseRedirect(reverse("admin:compliance_sanctions_import"))

    def has_import_file_permission(self, request, obj=None):
        # the button shows only to whom the import page opens: never a link to a 403
        return _may(request, "sanctions.import")

    def _page(self, request, template, **context):
        return TemplateResponse(
            request, template, {**self.admin_site.each_context(request), "opts": self.opts, **context}
        )

    def import_view(self, request):
        if not _may(request, "sanctions.import"):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            files = {
                role: SourceFile(name=data[role].name, data=data[role].read())
                for role in ("file", "alt", "add")
                if data.get(role)
            }
            try:
                row = sanctions_import_start(
                    list_code=data["list_code"], files=files, actor=request.user, allow_shrink=data["allow_shrink"]
                )
            except DomainError as exc:
                form.add_error(None, exc.said)
            else:
                return HttpResponseRedirect(reverse("admin:compliance_sanctions_import_progress", args=[row.pk]))
        recent = recent_imports(limit=10)
        return self._page(
            request, "compliance/sanctions/import.html", title="Import a sanctions list", form=form, recent=recent
        )

    def progress_view(self, request, import_id):
        if not _may(request, "sanctions.read"):
            raise PermissionDenied
        row = import_get(import_id=import_id)
        running = row.status in (ImportStatus.QUEUED, ImportStatus.RUNNING)
        progress = import_progress(row)
        return self._page(
            request,
            "compliance/sanctions/progress.html",
            title=f"Import of {row.list_code}",
            row=row,
            running=running,
            progress=progress,
            list_url=reverse("admin:compliance_sanctionslist_changelist"),
        )


LIST_CODE_HELP = "UN (its XML), OFAC (sdn.csv, with alt.csv and add.csv), or a code such as EU_FSF for FtM lines"


class ImportForm(forms.Form):
    list_code = forms.CharField(label="List", max_length=30, help_text=LIST_CODE_HELP, initial="UN")
    file = forms.FileField(help_text="The publisher's file (OFAC: sdn.csv)")
    alt = forms.FileField(required=False, label="OFAC alt.csv", help_text="OFAC only: other names")
    add = forms.FileField(required=False, label="OFAC add.csv", help_text="OFAC only: addresses")
    allow_shrink = forms.BooleanField(
        required=False, label="Allow a shrink", help_text="Let the import remove more than half of the list"
    )

    def clean_list_code(self):
        code = self.cleaned_data["list_code"].strip().upper()
        problem = list_code_problem(code)
        if problem:
            raise forms.ValidationError(problem)
        return code

    def clean(self):
        data = super().clean()
        for role in ("file", "alt", "add"):
            upload = data.get(role)
            if upload is not None and upload.size > MAX_FILE_BYTES:
                self.add_error(role, f"At most {MAX_FILE_BYTES // (1024 * 1024)} MB.")
        if data.get("list_code") and data["list_code"] != "OFAC" and (data.get("alt") or data.get("add")):
            self.add_error("alt" if data.get("alt") else "add", "Only OFAC's list takes alt.csv and add.csv.")
        return data


@admin.register(ListVersion)
class ListVersionAdmin(SanctionsReadAdmin):
    list_display = ("__str__", "imported_at", "imported_by", "entries", "added", "changed", "removed", "unchanged")
    list_filter = ("sanctions_list",)
    list_select_related = ("sanctions_list", "imported_by")
    fields = (
        "sanctions_list",
        "number",
        "imported_at",
        "imported_by",
        "source_files",
        "sha256",
        "entries",
        "individuals",
        "entities",
        "added",
        "changed",
        "removed",
        "unchanged",
        "allowed_shrink",
        "changes_link",
    )
    readonly_fields = fields
    ordering = ("sanctions_list__code", "-number")

    @display(description="What changed")
    def changes_link(self, obj):
        url = reverse("admin:compliance_sanctionsentrychange_changelist") + f"?version__id__exact={obj.pk}"
        return format_html('<a href="{}">the entries this version added, changed or removed</a>', url)


@admin.register(SanctionsEntryChange)
class SanctionsEntryChangeAdmin(SanctionsReadAdmin):
    """The delta of a version, entry by entry (reached from a version's "What changed")."""

    list_display = ("entry_link", "kind_label", "version", "screening_relevant", "changed_fields")
    # the entry's own link is the first column; the row's link to this change goes on its kind (links do not nest)
    list_display_links = ("kind_label",)
    list_filter = ("kind", "screening_relevant", "version__sanctions_list")
    list_select_related = ("entry", "entry__sanctions_list", "version", "version__sanctions_list")
    paginator = EstimatedCountPaginator
    show_full_result_count = False
    list_per_page = 100
    fields = ("entry", "version", "kind", "screening_relevant", "changes")
    readonly_fields = fields

    def get_list_filter(self, request):
        # the version a "What changed" link names is a filter of its own (not offered as a list of every version)
        return self.list_filter

    def lookup_allowed(self, lookup, value, request=None):
        return lookup == "version__id__exact" or super().lookup_allowed(lookup, value, request)

    @display(description="Entry")
    def entry_link(self, obj):
        url = reverse("admin:compliance_sanctionsentry_change", args=[obj.entry_id])
        # an entry the publisher named only by its reference still gets a link text (a screen reader reads it)
        return format_html('<a href="{}">{}</a>', url, obj.entry.name or obj.entry.reference)

    @display(description="Kind", label=KIND_LABELS)
    def kind_label(self, obj):
        return Badge(obj.kind, obj.get_kind_display())  # the colour from the code, the text in words

    @display(description="Fields")
    def changed_fields(self, obj):
        return ", ".join(obj.changes) if obj.kind == "CHANGED" else ""


# ---------------------------------------------------------------- entries


class HistoryInline(ReadOnlyAdminMixin, TabularInline):
    model = SanctionsEntryChange
    fields = ("version", "imported_at", "kind", "screening_relevant", "changes")
    readonly_fields = fields
    extra = 0
    verbose_name_plural = "History: what each version did to this entry"
    hide_title = True  # the columns say it; a title would repeat the row's str() (StateHistoryInline says why)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("version", "version__sanctions_list")

    @display(description="Imported at")
    def imported_at(self, obj):
        return f"{timezone.localtime(obj.version.imported_at):%Y-%m-%d %H:%M}"  # as the site's other times


class RemovedFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("active", "Active"), ("removed", "Removed")]

    def queryset(self, request, queryset):
        if self.value() == "active":
            return queryset.filter(removed_at__isnull=True)
        if self.value() == "removed":
            return queryset.filter(removed_at__isnull=False)
        return queryset


@admin.register(SanctionsEntry)
class SanctionsEntryAdmin(SanctionsReadAdmin):
    list_display = ("name", "list_code", "entry_type", "reference", "listed_on", "nationality_codes", "status_label")
    list_filter = ("sanctions_list", "entry_type", RemovedFilter)
    list_select_related = ("sanctions_list",)
    search_fields = ("search_text", "reference")
    search_help_text = "A name or alias (any part), or the publisher's reference (QDi.001, an OFAC number)"
    paginator = EstimatedCountPaginator
    show_full_result_count = False
    list_per_page = 50
    ordering = ("sanctions_list__code", "name")
    inlines = [HistoryInline]
    fieldsets = (
        ("Listed party", {"fields": ("name", "entry_type", "alias_list", "dates_of_birth", "nationalities")}),
        (
            "Listing",
            {
                "fields": (
                    "sanctions_list",
                    "reference",
                    "publisher_id",
                    "programs",
                    "listed_on",
                    "removed_at",
                    "version",
                )
            },
        ),  # fmt: skip
        ("What else the publisher says", {"fields": ("details",)}),
    )
    readonly_fields = (
        "name",
        "entry_type",
        "alias_list",
        "dates_of_birth",
        "nationalities",
        "sanctions_list",
        "reference",
        "publisher_id",
        "programs",
        "listed_on",
        "removed_at",
        "version",
        "details",
    )

    def get_search_results(self, request, queryset, search_term):
        return (entry_search(queryset, search_term), False) if search_term.strip() else (queryset, False)

    @display(description="List", ordering="sanctions_list__code")
    def list_code(self, obj):
        return obj.sanctions_list.code

    @display(description="Nationalities")
    def nationality_codes(self, obj):
        return ", ".join(obj.nationalities)

    @display(description="Status", label={"active": "success", "removed": "danger"})
    def status_label(self, obj):
        return "active" if obj.removed_at is None else "removed"

    @display(description="Aliases")
    def alias_list(self, obj):
        items = format_html_join(
            "", "<li>{} <small>({}, {})</small></li>", ((a["name"], a["quality"], a["kind"]) for a in obj.aliases)
        )
        return format_html("<ul>{}</ul>", items)


@admin.register(SanctionsImport)
class SanctionsImportAdmin(SanctionsReadAdmin):
    """Imports started from this site: who, which files, how they ended."""

    list_display = ("list_code", "status", "created_by", "created_at", "finished_at", "progress_link")
    list_filter = ("status", "list_code")
    list_select_related = ("created_by",)
    fields = (
        "list_code",
        "status",
        "stage",
        "source_files",
        "allow_shrink",
        "result",
        "error",
        "version",
        "created_by",
        "created_at",
        "finished_at",
    )
    readonly_fields = fields

    @display(description="Progress")
    def progress_link(self, obj):
        url = reverse("admin:compliance_sanctions_import_progress", args=[obj.pk])
        return format_html('<a href="{}">open</a>', url)
