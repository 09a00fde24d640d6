"""The SAR pages of the admin site: the queue by status, one report with its workflow, and its case work.

Every button calls the services the API calls (``sar_transition``,
``sar_return``) with the signed-in staff member as the actor, and only the
moves that person may take now are shown (``selectors.sar_available_moves``,
``sar_may_return``). Approving, which files the report with the FIU, goes
through a confirmation page. A report is written and edited while it is a
DRAFT on its own pages (``sar_drafts``); the page itself is read-only and says
who must act next. Comments and evidence files: ``casework``.
"""

from functools import partial

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from unfold.admin import ModelAdmin
from unfold.contrib.filters.admin import ChoicesDropdownFilter, RangeDateFilter
from unfold.decorators import display

from backoffice.admin.actions import Done, error_with_reasons, object_action
from backoffice.admin.base import EstimatedCountPaginator, StateHistoryInline, object_urls
from backoffice.admin.dashboard import register_card
from backoffice.money import money
from compliance.casework.admin.casework import CaseWorkAdminMixin
from compliance.sars import narratives
from compliance.sars.admin.mywork import SARDeadlineColumns, WaitingForMeFilter
from compliance.sars.admin.sar_drafts import SARDraftingAdminMixin
from compliance.sars.amounts import amount_mismatch
from compliance.sars.choices import SARStatus
from compliance.sars.export import FORMATS
from compliance.sars.goaml import check_report, render_goaml
from compliance.sars.models.sar import SAR, SARTransition
from compliance.sars.selectors.mywork import sar_card_counts, sar_may_correct, sar_may_record_rejection
from compliance.sars.selectors.sar import sar_available_moves, sar_for_report, sar_may_return, sar_next_step
from compliance.sars.services.sar import sar_correct, sar_export, sar_fiu_response, sar_return, sar_transition

STATUS_LABELS = {
    SARStatus.DRAFT: "info",
    SARStatus.PENDING_REVIEW: "warning",
    SARStatus.PENDING_APPROVAL: "warning",
    SARStatus.SUBMITTED: "success",
    SARStatus.ACKNOWLEDGED: "success",
    SARStatus.UNDER_INVESTIGATION: "danger",
    SARStatus.CLOSED: "info",
}

# What each button says: the move into that state, in the words an officer uses.
MOVE_LABELS = {
    SARStatus.PENDING_REVIEW: "Submit for review",
    SARStatus.PENDING_APPROVAL: "Mark reviewed",
    SARStatus.SUBMITTED: "Approve and submit to FIU",
    SARStatus.ACKNOWLEDGED: "FIU acknowledged",
    SARStatus.UNDER_INVESTIGATION: "FIU investigating",
    SARStatus.CLOSED: "Close",
}


# Who the queue waits for, in a few words (the page says it in full: ``selectors.sar_next_step``).
WAITING_FOR = {
    SARStatus.DRAFT: "Filer: finish the draft",
    SARStatus.PENDING_REVIEW: "Review (not the filer)",
    SARStatus.PENDING_APPROVAL: "MLRO approval",
    SARStatus.SUBMITTED: "FIU acknowledgement",
    SARStatus.ACKNOWLEDGED: "FIU decision",
    SARStatus.UNDER_INVESTIGATION: "FIU investigation",
    SARStatus.CLOSED: "Nobody (closed)",
}


def can_view_sars(request) -> bool:
    """Sidebar and dashboard gate: compliance roles only (tipping-off)."""
    user = request.user
    return bool(getattr(user, "is_authenticated", False) and user.has_capability("sars.read"))


class SARTransitionInline(StateHistoryInline):
    model = SARTransition
    verbose_name = "transition"
    verbose_name_plural = "Transition history"
    hide_title = True


@admin.register(SAR)
class SARAdmin(SARDeadlineColumns, CaseWorkAdminMixin, SARDraftingAdminMixin, ModelAdmin):
    casework_kind = "sar"
    list_display = (
        "sar_ref",
        "status_label",
        "waiting_for",
        "subject",
        "suspicious_activity_type",
        "amount",
        "filed_by",
        "filing_priority",
        "filing_due",
        "created_at",
    )
    list_filter = (
        WaitingForMeFilter,
        ("status", ChoicesDropdownFilter),
        ("suspicious_activity_type", ChoicesDropdownFilter),
        ("created_at", RangeDateFilter),
    )
    list_filter_submit = True
    search_fields = (
        "sar_id",
        "entity_user__first_name",
        "entity_user__last_name",
        "entity_user__phone_number",
        "entity_user__email",
        "fiu_reference",
    )
    list_select_related = ("entity_user", "filed_by")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ("-created_at",)
    date_hierarchy = None
    inlines = [SARTransitionInline]
    change_form_outer_before_template = "compliance/admin/sar_workflow.html"
    fieldsets = (
        (
            "Report",
            {
                "fields": (
                    "sar_ref",
                    "status_label",
                    "suspicious_activity_type",
                    "date_of_suspicious_activity",
                    "amount",
                    "amount_check",
                    "narrative",
                    "fiu_ref",
                )
            },
        ),
        ("Subject", {"fields": ("subject_summary",)}),
        ("Evidence", {"fields": ("transactions_table", "alerts_table")}),
        ("Narrative versions", {"fields": ("narrative_history",)}),
        (
            "People and dates",
            {
                "fields": (
                    ("filed_by", "drafted_at"),
                    ("reviewed_by", "reviewed_at"),
                    ("approved_by", "approved_at"),
                    "submitted_at",
                    "acknowledged_at",
                    "closed_at",
                    "filing_deadline",
                )
            },
        ),
    )
    readonly_fields = (
        "sar_ref",
        "status_label",
        "suspicious_activity_type",
        "date_of_suspicious_activity",
        "amount",
        "amount_check",
        "narrative",
        "fiu_ref",
        "subject_summary",
        "transactions_table",
        "alerts_table",
        "narrative_history",
        "filed_by",
        "drafted_at",
        "reviewed_by",
        "reviewed_at",
        "approved_by",
        "approved_at",
        "submitted_at",
        "acknowledged_at",
        "closed_at",
        "filing_deadline",
    )

    def casework_filed_at(self, obj):
        return obj.submitted_at  # set once, when the report is filed; later evidence never changes what was filed

    # ------------------------------------------------------------ permissions

    def has_add_permission(self, request):
        # "Add" opens the two-step new-SAR page (sar_drafts), which files through the same service as the API
        return bool(getattr(request.user, "has_capability", None) and request.user.has_capability("sars.file"))

    def has_change_permission(self, request, obj=None):
        return False  # the page is read-only: a draft is edited on its own page, a report moves by its transitions

    def has_delete_permission(self, request, obj=None):
        return False  # kept for the legal retention period

    def get_object(self, request, object_id, from_field=None):
        """One report with everything its page shows, in a fixed number of queries, loaded once per request."""
        cache = request.__dict__.setdefault("_sar_pages", {})
        if object_id not in cache:
            sar = super().get_object(request, object_id, from_field)
            cache[object_id] = sar_for_report(sar=sar) if sar is not None else None
        return cache[object_id]

    # ------------------------------------------------------------ columns

    @display(description="SAR id", ordering="sar_id")
    def sar_ref(self, obj):
        return obj.sar_id

    @display(description="FIU reference")
    def fiu_ref(self, obj):
        answer = {"ACCEPTED": " · accepted by the FIU", "REJECTED": f" · rejected by the FIU: {obj.fiu_reason}"}
        corrects = f" · corrects {obj.corrects.sar_id}" if obj.corrects_id else ""
        return (obj.fiu_reference or "—") + answer.get(obj.fiu_outcome, "") + corrects

    @display(description="Status", ordering="status", label={SARStatus(k).label: v for k, v in STATUS_LABELS.items()})
    def status_label(self, obj):
        return obj.get_status_display()

    @display(description="Waiting for")
    def waiting_for(self, obj):
        return WAITING_FOR[obj.status]

    @display(description="Subject", ordering="entity_user__last_name")
    def subject(self, obj):
        return obj.entity_user.full_name

    @display(description="Amount involved", ordering="amount_involved")
    def amount(self, obj):
        return money(obj.amount_involved)

    @display(description="Against the evidence")
    def amount_check(self, obj):
        rows = list(obj.related_transactions.all())  # prefetched by get_object
        mismatch = amount_mismatch(amount=obj.amount_involved, transactions=rows)
        if mismatch:
            warning = '<p class="cw-warning" role="note" data-testid="amount-warning">{}</p>'
            return format_html(warning, mismatch.message)
        if rows:
            return f"The total of the {len(rows)} cited transaction{'s' if len(rows) != 1 else ''}."
        return "No transaction cited."

    @display(description="Subject")
    def subject_summary(self, obj):
        return render_to_string("compliance/admin/sar_fields/subject.html", {"sar": obj})

    @display(description="Related transactions")
    def transactions_table(self, obj):
        rows = list(obj.related_transactions.all())  # prefetched in order by get_object
        context = {"rows": rows, "total": sum(t.amount for t in rows)}
        return render_to_string("compliance/admin/sar_fields/transactions.html", context)

    @display(description="Related alerts")
    def alerts_table(self, obj):
        alerts = list(obj.related_alerts.all())  # prefetched with their rules by get_object
        return render_to_string("compliance/admin/sar_fields/alerts.html", {"alerts": alerts})

    @display(description="Narrative")
    def narrative(self, obj):
        return format_html(
            "<div style='white-space:pre-wrap' data-testid='sar-narrative'>{}</div>", obj.activity_description
        )

    @display(description="Versions")
    def narrative_history(self, obj):
        versions = sorted(obj.narrative_versions.all(), key=lambda v: v.number, reverse=True)  # prefetched
        return render_to_string("compliance/admin/sar_fields/versions.html", {"versions": versions})

    # ------------------------------------------------------------ workflow buttons and exports

    def get_urls(self):
        routes = {
            "transition": self.transition_view,
            "export/<str:fmt>": self.export_view,
            "return": self.return_view,
            "confirm-submit": self.confirm_submit_view,
            "fiu-rejected": self.fiu_rejected_view,
            "correction": self.correction_view,
        }
        return object_urls(self, routes) + super().get_urls()

    def workflow_context(self, request, sar) -> dict:
        """The workflow box: moves, return, next step, exports, the goAML check, the editor link."""
        moves = sar_available_moves(sar=sar, actor=request.user)
        return {
            "sar_obj": sar,
            "sar_moves": [{"status": status, "label": MOVE_LABELS[status]} for status in moves],
            "sar_may_return": sar_may_return(sar=sar, actor=request.user),
            "sar_next_step": sar_next_step(sar=sar),
            "sar_you_act": bool(moves),
            "sar_last_return": next(
                (t for t in reversed(sar.transitions.all()) if t.to_status == SARStatus.DRAFT), None
            ),
            "sar_open_prompts": narratives.open_prompts(sar.activity_description)
            if sar.status == SARStatus.DRAFT
            else 0,
            "sar_can_edit": sar.status == SARStatus.DRAFT and request.user.has_capability("sars.file"),
            "sar_edit_url": reverse("admin:compliance_sar_edit", args=[sar.pk]),
            "sar_transition_url": reverse("admin:compliance_sar_transition", args=[sar.pk]),
            "sar_return_url": reverse("admin:compliance_sar_return", args=[sar.pk]),
            "sar_confirm_url": reverse("admin:compliance_sar_confirm_submit", args=[sar.pk]),
            "sar_goaml": check_report(render_goaml(sar)),
            # the unit's rejection (its acceptance is the "FIU acknowledged" move) and the correction it calls for
            "sar_may_record_rejection": sar_may_record_rejection(sar=sar, actor=request.user),
            "sar_fiu_rejected_url": reverse("admin:compliance_sar_fiu_rejected", args=[sar.pk]),
            "sar_may_correct": sar_may_correct(sar=sar, actor=request.user),
            "sar_correction_url": reverse("admin:compliance_sar_correction", args=[sar.pk]),
            "sar_corrections": list(sar.corrections.all()),
            "sar_filed_sha256": sar.filed_sha256,
            "sar_exports": [
                {"label": label, "url": reverse("admin:compliance_sar_export", args=[sar.pk, fmt])}
                for fmt, label in (("html", "HTML report"), ("text", "Plain text"), ("goaml", "goAML XML"))
            ],
        }

    def change_view(self, request, object_id, form_url="", extra_context=None):
        sar = self.get_object(request, object_id)
        extra_context = extra_context or {}
        if sar is not None:
            extra_context.update(self.workflow_context(request, sar))
        return super().change_view(request, object_id, form_url, extra_context)

    def _url(self, object_id) -> str:
        return reverse("admin:compliance_sar_change", args=[object_id])

    def _back(self, object_id):
        return HttpResponseRedirect(self._url(object_id))

    def _action(self, request, object_id, act, **kwargs):
        return object_action(self, request, object_id, act, back=self._url(object_id), **kwargs)

    def transition_view(self, request, object_id):
        def move(sar):
            status = request.POST.get("status", "")
            if status == SARStatus.SUBMITTED and request.POST.get("confirmed") != "yes":
                # approving files the report with the FIU: it is confirmed on its own page first
                return HttpResponseRedirect(reverse("admin:compliance_sar_confirm_submit", args=[object_id]))
            sar = sar_transition(
                sar=sar,
                actor=request.user,
                status=status,
                note=request.POST.get("note", "").strip()[:5000],
                fiu_reference=request.POST.get("fiu_reference", "").strip()[:64],
            )
            return f"{sar.sar_id} moved to {sar.get_status_display()}."

        return self._action(request, object_id, move, error=partial(error_with_reasons, key="report", limit=5))

    def return_view(self, request, object_id):
        def send_back(sar):
            sar = sar_return(sar=sar, actor=request.user, reason=request.POST.get("reason", "")[:5000])
            return f"{sar.sar_id} returned to the draft for more work."

        return self._action(request, object_id, send_back)

    def fiu_rejected_view(self, request, object_id):
        """The unit rejected the filing: record its reason (the report closes; a correction replaces it)."""

        def record(sar):
            sar = sar_fiu_response(
                sar=sar,
                actor=request.user,
                accepted=False,
                reason=request.POST.get("reason", "")[:5000],
                fiu_reference=request.POST.get("fiu_reference", "").strip()[:64],
            )
            return f"{sar.sar_id}: the FIU's rejection is recorded."

        return self._action(request, object_id, record)

    def correction_view(self, request, object_id):
        """File the correction of a rejected report and open it (a new DRAFT naming the rejected one)."""

        def correct(sar):
            correction = sar_correct(sar=sar, actor=request.user)
            return Done(f"{correction.sar_id} corrects {sar.sar_id}: edit the draft.", url=self._url(correction.pk))

        return self._action(request, object_id, correct)

    def confirm_submit_view(self, request, object_id):
        """The step before the approval that files the report: what goes to the FIU, and whether it validates."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        sar = self.get_object(request, object_id)
        if sar is None:
            raise Http404
        if SARStatus.SUBMITTED not in sar_available_moves(sar=sar, actor=request.user):
            self.message_user(request, "You cannot approve and submit this report now.", messages.ERROR)
            return self._back(object_id)
        context = {
            **self.admin_site.each_context(request),
            **self.workflow_context(request, sar),
            "opts": self.opts,
            "title": f"Approve {sar.sar_id} and submit it to the FIU?",
            "transactions": list(sar.related_transactions.all()),
        }
        return TemplateResponse(request, "compliance/admin/sar_confirm_submit.html", context)

    def export_view(self, request, object_id, fmt):
        if not self.has_view_permission(request) or fmt not in FORMATS:
            raise PermissionDenied
        sar = get_object_or_404(SAR, pk=object_id)
        body, spec = sar_export(sar=sar, actor=request.user, fmt=fmt, via="admin")
        response = HttpResponse(body, content_type=spec.content_type)
        response["Content-Disposition"] = f'attachment; filename="SAR-{sar.sar_id}.{spec.extension}"'
        response["Cache-Control"] = "no-store"
        return response


@register_card
def _sar_cards(request):
    if not can_view_sars(request):
        return []
    counts = sar_card_counts()
    url = reverse("admin:compliance_sar_changelist")
    return [
        {
            "title": "SARs awaiting review",
            "value": counts["review"],
            "hint": f"{counts['drafts']} drafts",
            "link": f"{url}?status__exact={SARStatus.PENDING_REVIEW}",
        },
        {
            "title": "SARs awaiting approval",
            "value": counts["approval"],
            "hint": "For the MLRO",
            "link": f"{url}?status__exact={SARStatus.PENDING_APPROVAL}",
        },
    ]
