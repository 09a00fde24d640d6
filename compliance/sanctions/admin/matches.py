"""The sanctions match queue of the admin site: the customer (or counterparty) and the entry side by side, with
aliases, dates, programmes, the explanation in plain words and the customer's recent transactions; confirm or
dismiss with a note (``services.review``: audited; a confirmation freezes and drafts a SAR)."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from unfold.admin import ModelAdmin
from unfold.decorators import action, display

from backoffice.admin.base import EstimatedCountPaginator, StateHistoryInline
from backoffice.admin.fields import Badge
from backoffice.errors import DomainError, NotFound
from backoffice.limits import NOTE_MAX_LENGTH
from compliance.sanctions.match_choices import MatchParty, MatchStatus
from compliance.sanctions.models.match import SanctionsMatch, SanctionsMatchEvent
from compliance.sanctions.selectors.screening import match_get
from compliance.sanctions.services.review import sanctions_match_review
from kyc.selectors.users import user_transactions

RECENT_TRANSACTIONS = 10
STATUS_LABELS = {
    MatchStatus.POTENTIAL: "warning",
    MatchStatus.CONFIRMED: "danger",
    MatchStatus.DISMISSED: "info",
    MatchStatus.CLOSED: "info",
}


def may_review(request) -> bool:
    user = request.user
    return bool(getattr(user, "is_authenticated", False) and user.has_capability("sanctions.review"))


class ReviewForm(forms.Form):
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=NOTE_MAX_LENGTH)

    def __init__(self, *args, status: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["note"].help_text = (
            "Why this is not the listed party (kept in the match's history and the audit log)"
            if status == MatchStatus.DISMISSED
            else "What confirmed it (kept in the match's history, the SAR draft and the audit log)"
        )


class SanctionsMatchEventInline(StateHistoryInline):
    model = SanctionsMatchEvent
    verbose_name = "event"


def _list_text(values) -> str:
    return ", ".join(str(v) for v in values or []) or "—"


def side_by_side_html(match: SanctionsMatch) -> str:
    """The party and the entry in two columns: names, aliases, dates of birth, nationalities, programmes."""
    entry = match.entry
    user = match.user
    aliases = [a.get("name", "") if isinstance(a, dict) else str(a) for a in entry.aliases or []]
    if match.party == MatchParty.USER and user is not None:
        party_rows = [
            ("Name", user.full_name),
            ("Other names", f"{user.names} {user.surname}".strip() or "—"),
            ("Date of birth", user.date_of_birth or "—"),
            ("Nationality", user.nationality or "—"),
            ("Country", user.country or "—"),
            ("Wallet", "frozen" if user.is_frozen else "active"),
        ]
    else:
        party_rows = [
            ("Counterparty", match.counterparty_name),
            ("Named in a payment of", user.full_name if user else "—"),
        ]
    entry_rows = [
        ("Name", entry.name),
        ("Aliases", _list_text(aliases)),
        ("Dates of birth", _list_text(entry.dates_of_birth)),
        ("Nationalities", _list_text(entry.nationalities)),
        ("Programmes", _list_text(entry.programs)),
        ("List", f"{entry.sanctions_list.code} {entry.reference} ({entry.get_entry_type_display()})"),
        ("Listed on", entry.listed_on or "—"),
    ]
    rows = format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", party_rows)
    listed = format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", entry_rows)
    return format_html(
        '<div class="sanctions-side" style="display:grid; grid-template-columns: 1fr 1fr; gap: 1.5rem">'
        '<section><h3 style="font-weight:600">{}</h3><table>{}</table></section>'
        '<section><h3 style="font-weight:600">Listed entry</h3><table>{}</table></section></div>'
        '<p style="margin-top:.75rem"><strong>Why they matched (score {}):</strong> {}</p>',
        "Customer" if match.party == MatchParty.USER else "Counterparty",
        rows,
        listed,
        f"{match.score:.2f}",
        match.explanation or "—",
    )


@admin.register(SanctionsMatch)
class SanctionsMatchAdmin(ModelAdmin):
    """The match queue: potential matches first; confirm or dismiss (audited) from the match's page."""

    list_display = ("party_name", "party", "entry_name", "list_reference", "score_text", "status_label", "created_at")
    list_filter = ("status", "party")
    list_select_related = ("user", "entry", "entry__sanctions_list")
    search_fields = ("user__first_name", "user__last_name", "counterparty_name", "entry__name")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = 50
    ordering = ("-created_at", "-id")
    inlines = [SanctionsMatchEventInline]
    actions_detail = ["confirm_match", "dismiss_match"]
    fieldsets = (
        ("Match", {"fields": ("status_label", "score_text", "side_by_side", "alert_link")}),
        ("Recent transactions", {"fields": ("recent_transactions",)}),
        ("Decision", {"fields": ("decided_by", "decided_at", "note")}),
    )
    readonly_fields = (
        "status_label",
        "score_text",
        "side_by_side",
        "alert_link",
        "recent_transactions",
        "decided_by",
        "decided_at",
        "note",
    )

    def has_module_permission(self, request):
        return may_review(request)

    def has_view_permission(self, request, obj=None):
        return may_review(request)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # a match changes only through confirm / dismiss

    def has_review_permission(self, request, obj=None):
        return may_review(request)

    def get_object(self, request, object_id, from_field=None):
        try:
            return match_get(object_id)
        except NotFound:
            return None

    @display(description="Customer or counterparty")
    def party_name(self, obj):
        if obj.party == MatchParty.COUNTERPARTY:
            return obj.counterparty_name
        return obj.user.full_name if obj.user else "—"

    @display(description="Entry", ordering="entry__name")
    def entry_name(self, obj):
        return obj.entry.name

    @display(description="List")
    def list_reference(self, obj):
        return f"{obj.entry.sanctions_list.code} {obj.entry.reference}"

    @display(description="Score", ordering="score")
    def score_text(self, obj):
        return f"{obj.score:.2f}"

    @display(description="Status", ordering="status", label=STATUS_LABELS)
    def status_label(self, obj):
        return Badge(obj.status, obj.get_status_display())  # the colour from the code, the text in words

    @display(description="Side by side")
    def side_by_side(self, obj):
        return side_by_side_html(obj)

    @display(description="Alert")
    def alert_link(self, obj):
        if obj.alert_id is None:
            return "—"
        return format_html(
            '<a href="{}">{} alert, {}</a>',
            reverse("admin:compliance_alert_change", args=[obj.alert_id]),
            obj.alert.severity,
            obj.alert.get_status_display(),
        )

    @display(description="The customer's latest transactions")
    def recent_transactions(self, obj):
        if obj.user_id is None:
            return "—"
        rows = user_transactions(user=obj.user).order_by("-created_at")[:RECENT_TRANSACTIONS]
        if not rows:
            return "No transactions."
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>SZL {}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    f"{t.created_at:%Y-%m-%d %H:%M}",
                    t.get_type_display(),
                    f"{t.amount:,.2f}",
                    t.status,
                    t.counterparty_name or "—",
                )
                for t in rows
            ),
        )
        return format_html(
            "<table><tr><th>When</th><th>Type</th><th>Amount</th><th>Status</th><th>Counterparty</th></tr>{}</table>",
            body,
        )

    # ------------------------------------------------------------ confirm / dismiss

    @action(description="Confirm: the listed party", url_path="confirm", permissions=["review"], icon="gpp_bad")
    def confirm_match(self, request, object_id):
        return self._review(request, object_id, MatchStatus.CONFIRMED)

    @action(description="Dismiss: not the listed party", url_path="dismiss", permissions=["review"], icon="block")
    def dismiss_match(self, request, object_id):
        return self._review(request, object_id, MatchStatus.DISMISSED)

    def _review(self, request, object_id, status):
        if not may_review(request):
            raise PermissionDenied
        try:
            match = match_get(object_id)
        except NotFound:
            raise Http404("No such match") from None
        back = reverse("admin:compliance_sanctionsmatch_change", args=[match.pk])
        form = ReviewForm(request.POST or None, status=status)
        if request.method == "POST" and form.is_valid():
            try:
                sanctions_match_review(match=match, actor=request.user, status=status, note=form.cleaned_data["note"])
            except DomainError as exc:
                self.message_user(request, exc.said, messages.ERROR)
            else:
                self.message_user(request, f"Match {status.lower()}.", messages.SUCCESS)
            return HttpResponseRedirect(back)
        verb = "Confirm" if status == MatchStatus.CONFIRMED else "Dismiss"
        return TemplateResponse(
            request,
            "compliance/sanctions/match_review.html",
            {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "original": match,
                "form": form,
                "verb": verb,
                "status": status,
                "back": back,
                "title": f"{verb} the match of {self.party_name(match)} with {match.entry.name}?",
                "side_by_side": side_by_side_html(match),
            },
        )
