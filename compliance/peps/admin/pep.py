"""The PEP pages of the admin site: the list, a PEP and its matched users, import with a preview, the matches
with confirm / dismiss, the screening page, the screening runs, and the dashboard cards.

Every write goes through ``compliance.services`` (create, update, delete, import, review), so the admin site
matches, alerts and audits exactly as the API does. Only holders of ``peps.manage`` see any of it.
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from unfold.admin import ModelAdmin, TabularInline
from unfold.contrib.filters.admin import ChoicesDropdownFilter
from unfold.decorators import action, display
from unfold.widgets import UnfoldAdminTextareaWidget, UnfoldAdminTextInputWidget

from backoffice.admin.actions import object_action
from backoffice.admin.base import (
    DefaultChoiceFilter,
    EstimatedCountPaginator,
    ReadOnlyAdminMixin,
    ServiceErrorsAdminMixin,
    StateHistoryInline,
)
from backoffice.admin.dashboard import register_card
from backoffice.admin.fields import Badge, CountryField, KeyValueField
from backoffice.limits import NOTE_MAX_LENGTH
from compliance.peps.choices import PEPCategory, PEPMatchStatus, ScreeningChannel, ScreeningStatus
from compliance.peps.errors import PepImportExpired, UnreadablePepFile
from compliance.peps.formats import FORMATS
from compliance.peps.models.pep import (
    PEP,
    NameScreening,
    PEPMatch,
    PEPMatchEvent,
    ScreeningRun,
    date_of_birth_problem,
)
from compliance.peps.selectors.pep import match_threshold, screening_coverage
from compliance.peps.selectors.pep_matches import match_page, matches_with_people, pep_card_counts
from compliance.peps.services import imports
from compliance.peps.services import pep as services
from compliance.peps.services.name_screening import pep_name_screen
from compliance.peps.services.pep_matches import pep_match_review

STATUS_LABELS = {
    PEPMatchStatus.POTENTIAL: "warning",
    PEPMatchStatus.CONFIRMED: "danger",
    PEPMatchStatus.DISMISSED: "info",
}
IMPORT_MAX_BYTES = 50 * 1024 * 1024


def may_manage_peps(request) -> bool:
    user = request.user
    return bool(getattr(user, "is_authenticated", False) and user.has_capability("peps.manage"))


def _require(request) -> None:
    if not may_manage_peps(request):
        raise PermissionDenied


def explanation_html(explanation: dict, score: float | None = None) -> str:
    return render_to_string("compliance/pep/explanation.html", {"explanation": explanation or {}, "score": score})


# ---------------------------------------------------------------- the PEP list


class LinesField(forms.CharField):
    """Aliases as one per line."""

    widget = UnfoldAdminTextareaWidget(attrs={"rows": 3})

    def prepare_value(self, value):
        return "\n".join(value) if isinstance(value, list) else value

    def to_python(self, value):
        return [line.strip() for line in (value or "").splitlines() if line.strip()]


class PEPForm(forms.ModelForm):
    aliases = LinesField(required=False, help_text="Other names of the same person, one per line")
    additional_info = KeyValueField(required=False, label="Additional info")
    country = CountryField(help_text="Saved as its ISO code: “Eswatini” and “SZ” are the same country")
    date_of_birth = forms.CharField(
        required=False, max_length=10, help_text="YYYY-MM-DD, or YYYY-MM / YYYY", widget=UnfoldAdminTextInputWidget
    )

    class Meta:
        model = PEP
        fields = ("name", "category", "position", "country", "source", "is_active", "aliases", "date_of_birth")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        info = self.instance.additional_info if self.instance.pk else {}
        self.fields["additional_info"].initial = dict(info or {})
        self.initial["additional_info"] = dict(info or {})
        stored = self.instance.country if self.instance.pk else ""
        country = self.fields["country"]
        if stored and country.prepare_value(stored) not in dict(country.choices):
            # a country written before the list (a name it does not know) stays choosable until it is corrected
            country.choices = [(stored, f"{stored} (as written before)"), *country.choices]

    def clean_additional_info(self):
        return self.cleaned_data.get("additional_info") or {}

    def clean_date_of_birth(self):
        value = (self.cleaned_data.get("date_of_birth") or "").strip()
        if value and (problem := date_of_birth_problem(value)):
            raise forms.ValidationError(problem)
        return value

    def _post_clean(self):
        # the services validate and save; the model's own clean would compute keys twice
        pass


class PEPMatchInline(ReadOnlyAdminMixin, TabularInline):
    model = PEPMatch
    fk_name = "pep"
    fields = ("user_link", "score_text", "status", "created_at")
    readonly_fields = fields
    extra = 0
    verbose_name = "matched user"
    verbose_name_plural = "Matched users"
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user").order_by("-score", "pk")

    @display(description="User")
    def user_link(self, obj):
        return obj.user.full_name

    @display(description="Score")
    def score_text(self, obj):
        return f"{obj.score:.2f}"


@admin.register(PEP)
class PEPAdmin(ServiceErrorsAdminMixin, ModelAdmin):
    """The PEP list; add, change and delete call the PEP services, so matching runs as in the API."""

    form = PEPForm
    list_display = ("name", "category", "position", "country", "active_label", "match_count", "version", "updated_at")
    list_filter = ("is_active", ("category", ChoicesDropdownFilter))
    list_filter_submit = True
    search_fields = ("name", "name_key", "position", "country")
    search_help_text = "Name (accents ignored), position or country"
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = 50
    ordering = ("-created_at", "-id")
    inlines = [PEPMatchInline]
    actions_list = ["import_file", "screen_a_name"]
    fieldsets = (
        ("Person", {"fields": ("name", "aliases", "date_of_birth", "country")}),
        ("Exposure", {"fields": ("category", "position", "source", "is_active", "additional_info")}),
        ("Record", {"fields": ("version", "screening_state", "created_at", "updated_at")}),
    )
    readonly_fields = ("version", "screening_state", "created_at", "updated_at")

    class Media:
        css = {"all": ("compliance/peps.css",)}

    def has_module_permission(self, request):
        return may_manage_peps(request)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(match_total=Count("matches"))

    @display(description="Active", label={"active": "success", "inactive": "info"}, ordering="is_active")
    def active_label(self, obj):
        return "active" if obj.is_active else "inactive"

    @display(description="Matches", ordering="match_total")
    def match_count(self, obj):
        return obj.match_total

    @display(description="Screening")
    def screening_state(self, obj):
        if not obj.is_active:
            return "Inactive: not screened"
        if obj.awaiting_screening:
            return "Waiting: this content has not been screened against the users yet"
        return f"Screened against all users on {obj.screened_at:%Y-%m-%d %H:%M} UTC"

    def save_model(self, request, obj, form, change):
        data = {name: form.cleaned_data[name] for name in form.Meta.fields if name in form.cleaned_data}
        data["additional_info"] = form.cleaned_data.get("additional_info") or {}
        if change:
            # the interface does not update a PEP's source; the admin's correction of it goes in the same version
            source = data.pop("source", None)
            result = services.pep_update(
                pep=obj, actor=request.user, changes=data, source=None if source is None else source or ""
            )
        else:
            result = services.pep_create(actor=request.user, **data)
        # the admin goes on with the instance it gave us (its redirect, its log entry): make it the saved PEP
        obj.pk = result.pep.pk
        obj.refresh_from_db()
        obj._state.adding = False
        m = result.matching
        if m.peps_screened:
            self.message_user(
                request,
                f"Matched against {m.users_scanned:,} users: {len(m.users_matched)} matched, "
                f"{m.alerts_created} alert(s) raised.",
                messages.INFO,
            )

    # save_related stays Django's: the matches' formset is read-only, so saving it writes nothing, and the change
    # message the admin then writes reads what each formset saved (a no-op here left it a 500 on every save)

    def delete_model(self, request, obj):
        services.pep_delete(pep=obj, actor=request.user)

    def delete_queryset(self, request, queryset):
        for pep in queryset:
            services.pep_delete(pep=pep, actor=request.user)

    # ------------------------------------------------------------ extra pages

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("import/", wrap(self.import_view), name="compliance_pep_import"),
            path("screen/", wrap(self.screen_view), name="compliance_pep_screen"),
            *super().get_urls(),
        ]

    @action(description="Import a file", url_path="import-file", icon="upload_file")
    def import_file(self, request):
        return HttpResponseRedirect(reverse("admin:compliance_pep_import"))

    @action(description="Screen a name", url_path="screen-a-name", icon="manage_search")
    def screen_a_name(self, request):
        return HttpResponseRedirect(reverse("admin:compliance_pep_screen"))

    def _page(self, request, template, **context):
        return TemplateResponse(
            request,
            template,
            {**self.admin_site.each_context(request), "opts": self.opts, **context},
        )

    def screen_view(self, request):
        """A name is posted, never put in the URL (it would sit in logs and history); each screening is recorded."""
        _require(request)
        form = ScreenForm(request.POST if request.method == "POST" else None)
        hits = None
        if form.is_valid():
            data = form.cleaned_data
            screened = pep_name_screen(
                actor=request.user,
                channel=ScreeningChannel.ADMIN,
                name=data["name"],
                date_of_birth=data["date_of_birth"],
                country=data["country"],
            )
            hits = [
                {"pep": hit.pep, "score": hit.match.score, "explanation": explanation_html(hit.match.explanation)}
                for hit in screened.hits
            ]
        return self._page(
            request,
            "compliance/pep/screen.html",
            title="Screen a name against the PEP list",
            form=form,
            hits=hits,
            threshold=match_threshold(),
            screenings_url=reverse("admin:compliance_namescreening_changelist"),
        )

    def import_view(self, request):
        _require(request)
        if request.method == "POST" and request.POST.get("token"):
            return self._import_confirmed(request)
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            return self._import_preview(request, form)
        return self._page(request, "compliance/pep/import.html", title="Import a PEP list", form=form, preview=None)

    def _import_preview(self, request, form):
        upload = form.cleaned_data["file"]
        try:
            staged = imports.pep_import_stage(
                data=upload.read(),
                filename=upload.name,
                actor=request.user,
                format=form.cleaned_data["format"] or None,
                category=form.cleaned_data["category"] or "",
                source=form.cleaned_data["source"] or "",
            )
        except UnreadablePepFile as exc:
            form.add_error("file", " ".join(exc.details["file"]))
            return self._page(request, "compliance/pep/import.html", title="Import a PEP list", form=form, preview=None)
        return self._page(
            request,
            "compliance/pep/import.html",
            title="Import a PEP list: preview",
            form=None,
            preview=staged.preview,
            entries=staged.entries,
            format=staged.format,
            filename=staged.filename,
            token=staged.ticket,
        )

    def _import_confirmed(self, request):
        try:
            result, filename = imports.pep_import_confirm(ticket=request.POST["token"], actor=request.user)
        except PepImportExpired as exc:
            self.message_user(request, exc.said, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:compliance_pep_import"))
        m = result.matching
        self.message_user(
            request,
            f"{filename}: {result.created} created, {result.updated} updated, {result.unchanged} unchanged, "
            f"{len(result.errors)} refused. Matching: {len(m.users_matched)} users matched, "
            f"{m.alerts_created} alert(s) raised.",
            messages.SUCCESS if not result.errors else messages.WARNING,
        )
        return HttpResponseRedirect(reverse("admin:compliance_pep_changelist"))


class ScreenForm(forms.Form):
    name = forms.CharField(max_length=300)
    date_of_birth = forms.CharField(required=False, max_length=10, label="Date of birth", help_text="YYYY-MM-DD")
    country = forms.CharField(required=False, max_length=100)

    def clean_date_of_birth(self):
        value = (self.cleaned_data.get("date_of_birth") or "").strip()
        if value and (problem := date_of_birth_problem(value)):
            raise forms.ValidationError(problem)
        return value


class ImportForm(forms.Form):
    file = forms.FileField(
        help_text="CSV or JSON with the API's fields, FollowTheMoney JSON lines, or targets.simple.csv"
    )
    format = forms.ChoiceField(choices=[("", "Detect from the content"), *((f, f) for f in FORMATS)], required=False)
    category = forms.ChoiceField(
        choices=[("", "As in the file (else Unknown)"), *PEPCategory.choices], required=False, label="Category"
    )
    source = forms.CharField(required=False, max_length=200, help_text="For rows that name no source")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise forms.ValidationError("At most 50 MB.")
        return upload


# ---------------------------------------------------------------- matches


class ReviewForm(forms.Form):
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=NOTE_MAX_LENGTH)

    def __init__(self, *args, status: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["note"].help_text = (
            "Why this user is not the PEP (kept in the match's history, on its alert and in the audit log)"
            if status == PEPMatchStatus.DISMISSED
            else "What confirmed it (kept in the match's history, on its alert and in the audit log)"
        )


class PEPMatchEventInline(StateHistoryInline):
    model = PEPMatchEvent
    verbose_name = "event"


class MatchStatusFilter(DefaultChoiceFilter):
    """Matches to review by default."""

    title = "status"
    parameter_name = "review"
    default = "open"

    def lookups(self, request, model_admin):
        return [("open", "To review (potential)"), *PEPMatchStatus.choices, ("all", "All matches")]

    def queryset(self, request, queryset):
        if self.current() == "open":
            return queryset.filter(status=PEPMatchStatus.POTENTIAL)
        if self.current() in PEPMatchStatus.values:
            return queryset.filter(status=self.current())
        return queryset


@admin.register(PEPMatch)
class PEPMatchAdmin(ModelAdmin):
    """Users matched to PEPs, with the explanation; confirm or dismiss (audited) from the match's page."""

    list_display = ("user_name", "pep_name", "score_text", "status_label", "created_at")
    list_filter = (MatchStatusFilter,)
    list_select_related = ("user", "pep")
    search_fields = ("user__first_name", "user__last_name", "user__phone_number", "pep_name")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = 50
    ordering = ("-created_at", "-id")
    inlines = [PEPMatchEventInline]
    actions_detail = ["confirm_match", "dismiss_match"]
    fieldsets = (
        ("Match", {"fields": ("status_label", "score_text", "user_summary", "pep_summary", "alert_link")}),
        ("Why", {"fields": ("explanation_table",)}),
        ("Review", {"fields": ("reviewed_by", "reviewed_at", "review_note")}),
    )
    readonly_fields = (
        "status_label",
        "score_text",
        "user_summary",
        "pep_summary",
        "alert_link",
        "explanation_table",
        "reviewed_by",
        "reviewed_at",
        "review_note",
    )

    class Media:
        css = {"all": ("compliance/peps.css",)}

    def has_module_permission(self, request):
        return may_manage_peps(request)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # a match changes only through confirm / dismiss

    def has_review_permission(self, request, obj=None):
        return may_manage_peps(request)

    def lookup_allowed(self, lookup, value, request=None):
        # "this user's matches" and "this PEP's matches" links
        return lookup in ("user__id__exact", "pep__id__exact") or super().lookup_allowed(lookup, value, request)

    def get_object(self, request, object_id, from_field=None):
        return match_page(object_id)

    @display(description="User", ordering="user__last_name")
    def user_name(self, obj):
        return obj.user.full_name

    @display(description="Score", ordering="score")
    def score_text(self, obj):
        return f"{obj.score:.2f}"

    @display(description="Status", ordering="status", label=STATUS_LABELS)
    def status_label(self, obj):
        return Badge(obj.status, obj.get_status_display())  # the colour from the code, the text in words

    @display(description="User")
    def user_summary(self, obj):
        return render_to_string("compliance/pep/fields/user.html", {"match": obj})

    @display(description="PEP")
    def pep_summary(self, obj):
        return render_to_string("compliance/pep/fields/pep.html", {"match": obj})

    @display(description="Alert")
    def alert_link(self, obj):
        if obj.alert_id is None:
            return "—"
        return format_html(
            '<a class="pep-link" href="{}">{} alert, {}</a>',
            reverse("admin:compliance_alert_change", args=[obj.alert_id]),
            obj.alert.severity,
            obj.alert.get_status_display(),
        )

    @display(description="Explanation")
    def explanation_table(self, obj):
        return explanation_html(obj.explanation, obj.score)

    # ------------------------------------------------------------ confirm / dismiss

    @action(description="Confirm: the user is this PEP", url_path="confirm", permissions=["review"], icon="verified")
    def confirm_match(self, request, object_id):
        return self._review(request, object_id, PEPMatchStatus.CONFIRMED)

    @action(description="Dismiss: not this PEP", url_path="dismiss", permissions=["review"], icon="block")
    def dismiss_match(self, request, object_id):
        return self._review(request, object_id, PEPMatchStatus.DISMISSED)

    def _review(self, request, object_id, status):
        _require(request)
        match = get_object_or_404(matches_with_people(), pk=object_id)
        back = reverse("admin:compliance_pepmatch_change", args=[match.pk])
        form = ReviewForm(request.POST or None, status=status)
        if request.method == "POST" and form.is_valid():

            def review(match):
                pep_match_review(match=match, actor=request.user, status=status, note=form.cleaned_data["note"])
                return f"Match {status.lower()}."

            return object_action(
                self, request, object_id, review, back=back, lookup=lambda: match, allowed=may_manage_peps
            )
        verb = "Confirm" if status == PEPMatchStatus.CONFIRMED else "Dismiss"
        return TemplateResponse(
            request,
            "compliance/pep/review.html",
            {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "original": match,
                "form": form,
                "verb": verb,
                "status": status,
                "back": back,
                "title": f"{verb} the match of {match.user.full_name} with {match.pep_name}?",
                "explanation": explanation_html(match.explanation, match.score),
            },
        )


# ---------------------------------------------------------------- screening runs


@admin.register(ScreeningRun)
class ScreeningRunAdmin(ReadOnlyAdminMixin, ModelAdmin):
    list_display = (
        "started_at",
        "trigger",
        "subject",
        "status_label",
        "peps_screened",
        "users_scanned",
        "candidates",
        "matches",
        "alerts_created",
        "duration",
    )
    list_filter = ("trigger", "status")
    list_select_related = ("actor",)
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = 50
    ordering = ("-started_at", "-id")
    fields = (
        "trigger",
        "status",
        "subject",
        "actor",
        "matcher_version",
        "threshold",
        "peps_screened",
        "users_scanned",
        "candidates",
        "matches",
        "users_matched",
        "users_updated",
        "alerts_created",
        "started_at",
        "finished_at",
        "error",
    )
    readonly_fields = fields

    def has_module_permission(self, request):
        return may_manage_peps(request)

    @display(
        description="Status",
        ordering="status",
        label={ScreeningStatus.COMPLETED: "success", ScreeningStatus.FAILED: "danger", ScreeningStatus.RUNNING: "info"},
    )
    def status_label(self, obj):
        return Badge(obj.status, obj.get_status_display())  # the colour from the code, the text in words

    @display(description="Seconds")
    def duration(self, obj):
        return f"{obj.seconds:.2f}" if obj.seconds is not None else "—"


# ---------------------------------------------------------------- names screened by hand


@admin.register(NameScreening)
class NameScreeningAdmin(ReadOnlyAdminMixin, ModelAdmin):
    """Every name screened by hand (admin page or API): who asked about whom, when, and the answer. Evidence:
    nobody adds, changes or deletes one."""

    list_display = ("screened_at", "name", "date_of_birth", "country", "hit_count", "best_hit", "who", "channel")
    list_filter = ("channel",)
    search_fields = ("name", "actor_email")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = 50
    ordering = ("-screened_at", "-id")
    fields = (
        "screened_at",
        "who",
        "channel",
        "name",
        "date_of_birth",
        "country",
        "aliases",
        "matcher_version",
        "threshold",
        "hit_count",
        "answer",
    )
    readonly_fields = fields

    def has_module_permission(self, request):
        return may_manage_peps(request)

    @display(description="Screened by", ordering="actor_email")
    def who(self, obj):
        return obj.actor_email or "system"

    @display(description="Best match")
    def best_hit(self, obj):
        return f"{obj.hits[0]['name']} ({obj.hits[0]['score']:.2f})" if obj.hits else "—"

    @display(description="Answer")
    def answer(self, obj):
        return render_to_string("compliance/pep/fields/answer.html", {"hits": obj.hits})


# ---------------------------------------------------------------- dashboard


@register_card
def _pep_cards(request):
    if not may_manage_peps(request):
        return []
    counts = pep_card_counts()
    coverage = screening_coverage()
    pep_list = reverse("admin:compliance_pep_changelist")
    return [
        {
            "title": "PEPs on the list",
            "value": counts["active"],
            "hint": f"active, of {counts['total']} in all",
            "link": f"{pep_list}?is_active__exact=1",
        },
        {
            "title": "PEP matches to review",
            "value": counts["to_review"],
            "hint": "Potential PEPs among users",
            "link": reverse("admin:compliance_pepmatch_changelist"),
        },
        {
            "title": "Screening coverage",
            "value": f"{coverage.share:.0%}",
            "hint": f"{coverage.users_covered:,} of {coverage.users:,} users screened against the current list"
            + (f"; {coverage.peps_pending} PEP(s) waiting" if coverage.peps_pending else ""),
            "link": reverse("admin:compliance_screeningrun_changelist"),
        },
    ]
