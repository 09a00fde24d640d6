"""Threshold reports in the admin site: the queue with its filing clock, the batch screen, the regulator statistics.

The batch screen shows every report of the batch with its goAML validation
(against ``GOAML_SCHEMA_PATH`` when set) before anyone submits, the submit
form only to those four eyes allow, and the unit's answer per report once
submitted. Every button calls the services the API calls, with the signed-in
staff member as the actor. Nothing here is edited by hand: reports open from
the ledger and move by their services.
"""

from functools import partial

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from unfold.admin import ModelAdmin
from unfold.contrib.filters.admin import ChoicesDropdownFilter, RangeDateFilter
from unfold.decorators import action, display

from backoffice.admin.actions import Done, object_action
from backoffice.admin.base import EstimatedCountPaginator, StateHistoryInline, object_urls
from backoffice.admin.dashboard import register_card
from compliance.reporting import charts
from compliance.reporting.choices import ThresholdReportStatus
from compliance.reporting.deadlines import (
    CLOCK_COLOURS,
    ESWATINI,
    filing_clock,
    last_filing_day,
    report_filed_late,
)
from compliance.reporting.models import (
    ThresholdReport,
    ThresholdReportBatch,
    ThresholdReportBatchEvent,
    ThresholdReportEvent,
)
from compliance.reporting.selectors.statistics import regulator_statistics, statistics_csv
from compliance.reporting.selectors.threshold import (
    batch_reports,
    filed_late_q,
    overdue_q,
    threshold_batch_may_submit,
    threshold_overdue_count,
    threshold_waiting_counts,
    threshold_work_counts,
)
from compliance.reporting.services.threshold import (
    threshold_batch_check,
    threshold_batch_export,
    threshold_batch_prepare,
    threshold_batch_submit,
    threshold_report_answer,
)
from compliance.sars.choices import ActivityType
from compliance.sars.selectors.mywork import overdue_sars

STATUS_LABELS = {
    ThresholdReportStatus.PENDING: "warning",
    ThresholdReportStatus.BATCHED: "info",
    ThresholdReportStatus.SUBMITTED: "info",
    ThresholdReportStatus.ACCEPTED: "success",
    ThresholdReportStatus.REJECTED: "danger",
}


def _with_fields(exc) -> str:
    """A refused submission: the message and the first reason of up to five fields."""
    reasons = [f"{name}: {errors[0]}" for name, errors in (exc.details or {}).items() if errors][:5]
    return " ".join([exc.said, *reasons])


def _can(request, capability: str) -> bool:
    user = request.user
    return bool(getattr(user, "is_authenticated", False) and user.has_capability(capability))


class OverdueFilter(admin.SimpleListFilter):
    title = "filing deadline"
    parameter_name = "deadline"

    def lookups(self, request, model_admin):
        return [("overdue", "Overdue (not filed, past the deadline)"), ("late", "Filed late")]

    def queryset(self, request, queryset):
        if self.value() == "overdue":
            return queryset.filter(overdue_q())
        if self.value() == "late":
            return queryset.filter(filed_late_q())
        return queryset


class ThresholdReportEventInline(StateHistoryInline):
    model = ThresholdReportEvent


class ThresholdReportBatchEventInline(StateHistoryInline):
    model = ThresholdReportBatchEvent


@admin.register(ThresholdReport)
class ThresholdReportAdmin(ModelAdmin):
    inlines = (ThresholdReportEventInline,)
    list_display = (
        "day_label",
        "customer",
        "total_szl",
        "transaction_count",
        "status_label",
        "batch_link",
        "clock",
        "filing_due",
    )
    list_filter = (OverdueFilter, ("status", ChoicesDropdownFilter), ("day", RangeDateFilter))
    list_filter_submit = True
    search_fields = ("user__first_name", "user__last_name", "user__phone_number", "user__id_number")
    list_select_related = ("user", "batch")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ("-day", "-created_at")
    actions_list = ["open_batches", "open_statistics"]
    fields = (
        "customer",
        "day_label",
        "total_szl",
        "threshold_szl",
        "status_label",
        "batch_link",
        "fiu_reason",
        "filing_deadline",
        "transactions_table",
        "filings_table",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_transactions=Count("transactions"))

    def has_add_permission(self, request):
        return False  # reports open from the ledger

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # kept for the legal retention period

    @display(description="Day (Eswatini)", ordering="day")
    def day_label(self, obj):
        return f"{obj.day:%Y-%m-%d}"

    @display(description="Customer", ordering="user__last_name")
    def customer(self, obj):
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:kyc_platformuser_change", args=[obj.user_id]), obj.user.full_name
        )

    @display(description="Total (SZL)", ordering="total")
    def total_szl(self, obj):
        return floatformat(obj.total, "2g")

    @display(description="Threshold (SZL)")
    def threshold_szl(self, obj):
        return floatformat(obj.threshold, "2g")

    @display(description="Transactions", ordering="n_transactions")
    def transaction_count(self, obj):
        return getattr(obj, "n_transactions", None) or obj.transactions.count()

    @display(
        description="Status",
        ordering="status",
        label={ThresholdReportStatus(k).label: v for k, v in STATUS_LABELS.items()},
    )
    def status_label(self, obj):
        return obj.get_status_display()

    @display(description="Batch")
    def batch_link(self, obj):
        if not obj.batch_id:
            return "—"
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:compliance_thresholdreportbatch_change", args=[obj.batch_id]),
            str(obj.batch_id)[:8],
        )

    @display(description="Filing clock", label=CLOCK_COLOURS)
    def clock(self, obj):
        return filing_clock(obj)

    @display(description="File by", ordering="due_at")
    def filing_due(self, obj):
        return last_filing_day(obj)

    @display(description="Filing deadline")
    def filing_deadline(self, obj):
        state, words = filing_clock(obj)
        if obj.submitted_at:
            fact = "filed late" if report_filed_late(obj) else "filed in time"
        else:
            fact = "overdue" if words == "Overdue" else "not filed yet"
        return format_html(
            '<span class="vk-badge vk-prio-{}">{}</span> file by the end of {} (Eswatini time) &middot; {}',
            state,
            words,
            last_filing_day(obj),
            fact,
        )

    @display(description="Cash transactions")
    def transactions_table(self, obj):
        rows = list(obj.transactions.order_by("created_at", "id"))
        return render_to_string("compliance/reporting/fields/transactions.html", {"rows": rows})

    @display(description="Filings and the FIU's answers")
    def filings_table(self, obj):
        filings = list(obj.filings.select_related("batch", "answered_by").order_by("created_at"))
        return render_to_string("compliance/reporting/fields/filings.html", {"filings": filings})

    # ------------------------------------------------------------ pages

    @action(description="Batches", url_path="batches", icon="inventory_2")
    def open_batches(self, request):
        return HttpResponseRedirect(reverse("admin:compliance_thresholdreportbatch_changelist"))

    @action(
        description="Regulator statistics", url_path="open-statistics", icon="monitoring", permissions=["statistics"]
    )
    def open_statistics(self, request):
        return HttpResponseRedirect(reverse("admin:compliance_regulator_statistics"))

    def has_statistics_permission(self, request, obj=None):
        # the button shows only to whom the page opens (MLROs, admins): never a link to a 403
        return _can(request, "regulator.stats")

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("statistics/", wrap(self.statistics_view), name="compliance_regulator_statistics"),
            *super().get_urls(),
        ]

    def statistics_view(self, request):
        if not _can(request, "regulator.stats"):
            raise PermissionDenied
        try:
            months = min(max(int(request.GET.get("months", 12)), 1), 36)
        except ValueError:
            months = 12
        today = timezone.now().astimezone(ESWATINI).date()
        rows = regulator_statistics(until=today, months=months)
        if request.GET.get("format") == "csv":
            response = HttpResponse(statistics_csv(rows), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="regulator-statistics-{today:%Y-%m}.csv"'
            response["Cache-Control"] = "no-store"
            return response
        types_used = [t for t in ActivityType if any(r.sars_by_type.get(t.value) for r in rows)]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Regulator statistics",
            # what is late right now, beside the months' late filings
            "overdue_now": {
                "sars": len(overdue_sars()),
                "threshold_reports": threshold_overdue_count(),
            },
            "rows": rows,
            "months": months,
            "types_used": types_used,
            "table": [(r, [r.sars_by_type.get(t.value, 0) for t in types_used]) for r in rows],
            "csv_url": f"{reverse('admin:compliance_regulator_statistics')}?months={months}&format=csv",
            "charts": charts.statistics_charts(rows),
        }
        return TemplateResponse(request, "compliance/reporting/statistics.html", context)


@admin.register(ThresholdReportBatch)
class ThresholdReportBatchAdmin(ModelAdmin):
    inlines = (ThresholdReportBatchEventInline,)
    list_display = ("batch_ref", "status", "report_count", "created_by", "created_at", "submitted_by", "fiu_reference")
    list_filter = (("status", ChoicesDropdownFilter),)
    list_select_related = ("created_by", "submitted_by")
    ordering = ("-created_at",)
    actions_list = ["prepare_batch"]
    fields = ("batch_ref", "status", "created_by", "created_at", "submitted_by", "submitted_at", "fiu_reference")
    readonly_fields = fields
    change_form_outer_before_template = "compliance/reporting/batch.html"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_reports=Count("filings"))

    def has_add_permission(self, request):
        return False  # prepared with the button: it gathers what is pending

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @display(description="Batch")
    def batch_ref(self, obj):
        return str(obj.pk)[:8]

    @display(description="Reports", ordering="n_reports")
    def report_count(self, obj):
        return getattr(obj, "n_reports", None)

    @action(description="Prepare a batch of pending reports", url_path="prepare-batch", icon="add_box")
    def prepare_batch(self, request):
        if request.method != "POST":
            return TemplateResponse(
                request,
                "compliance/reporting/prepare.html",
                {
                    **self.admin_site.each_context(request),
                    "opts": self.opts,
                    "title": "Prepare a batch of threshold reports",
                    "waiting": threshold_waiting_counts(),
                },
            )

        def prepare(_):
            batch = threshold_batch_prepare(actor=request.user)
            return Done("Batch prepared: check each report's validation, then have it submitted.", self._url(batch.pk))

        return object_action(
            self,
            request,
            None,
            prepare,
            back=reverse("admin:compliance_thresholdreportbatch_changelist"),
            lookup=lambda: None,
            allowed=lambda request: _can(request, "ctr.prepare"),
            error_level=messages.WARNING,
        )

    def get_urls(self):
        routes = {"submit": self.submit_view, "export": self.export_view, "answer/<uuid:report_id>": self.answer_view}
        return object_urls(self, routes) + super().get_urls()

    def _url(self, object_id) -> str:
        return reverse("admin:compliance_thresholdreportbatch_change", args=[object_id])

    def change_view(self, request, object_id, form_url="", extra_context=None):
        batch = self.get_object(request, object_id)
        extra_context = extra_context or {}
        if batch is not None:
            configured, checks = threshold_batch_check(batch=batch)
            by_report = {c.report_id: c for c in checks}
            reports = batch_reports(batch=batch)
            filings = {f.report_id: f for f in batch.filings.select_related("resubmits__batch")}
            user = request.user
            extra_context.update(
                {
                    "batch": batch,
                    "schema_configured": configured,
                    "rows": [(r, filings[r.pk], by_report[r.pk]) for r in reports],
                    "invalid": sum(1 for c in checks if c.errors),
                    "may_submit": threshold_batch_may_submit(batch=batch, actor=user),
                    "is_preparer": batch.created_by_id == user.pk,
                    "may_answer": user.has_capability("ctr.submit"),
                    "export_url": reverse("admin:compliance_thresholdreportbatch_export", args=[batch.pk]),
                    "submit_url": reverse("admin:compliance_thresholdreportbatch_submit", args=[batch.pk]),
                }
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def submit_view(self, request, object_id):
        def submit(batch):
            threshold_batch_submit(batch=batch, actor=request.user, fiu_reference=request.POST.get("fiu_reference", ""))
            return "Batch submitted to the FIU."

        return object_action(self, request, object_id, submit, back=self._url(object_id), error=_with_fields)

    def answer_view(self, request, object_id, report_id):
        def answer(report):
            accepted = request.POST.get("answer") == "accepted"
            reason = request.POST.get("reason", "")[:5000]
            threshold_report_answer(report=report, actor=request.user, accepted=accepted, reason=reason)
            return f"The FIU's answer is recorded: {'accepted' if accepted else 'rejected'}."

        lookup = partial(get_object_or_404, ThresholdReport, pk=report_id, batch_id=object_id)
        return object_action(self, request, object_id, answer, back=self._url(object_id), lookup=lookup)

    def export_view(self, request, object_id):
        if not self.has_view_permission(request):
            raise PermissionDenied
        batch = get_object_or_404(ThresholdReportBatch, pk=object_id)
        body = threshold_batch_export(batch=batch, actor=request.user, via="admin")
        response = HttpResponse(body, content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="threshold-reports-{batch.pk}.zip"'
        response["Cache-Control"] = "no-store"
        return response


@register_card
def _threshold_cards(request):
    if not _can(request, "ctr.read"):
        return []
    counts = threshold_work_counts()
    url = reverse("admin:compliance_thresholdreport_changelist")
    return [
        {
            "title": "Threshold reports to batch",
            "value": counts["waiting"],
            "hint": "Pending, or rejected by the FIU and to file again",
            "link": f"{url}?status__exact=PENDING",
            "group": "my work",
            "tone": "warning" if counts["waiting"] else "",
        },
        {
            "title": "Threshold reports overdue for filing",
            "value": counts["overdue"],
            "hint": f"Past the legal deadline ({settings.CTR_FILING_DAYS} days after the day of the cash), not filed",
            "link": f"{url}?deadline=overdue",
            "group": "my work",
            "tone": "danger" if counts["overdue"] else "",
        },
        {
            "title": "Threshold reports awaiting the FIU",
            "value": counts["unanswered"],
            "hint": "Submitted, no answer recorded yet",
            "link": f"{url}?status__exact=SUBMITTED",
        },
    ]
