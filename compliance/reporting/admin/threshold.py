"""Threshold reports in the admin site: the queue with its filing clock, the batch screen, the regulator statistics.

The batch screen shows every report of the batch with its goAML validation
(against ``GOAML_SCHEMA_PATH`` when set) before anyone submits, the submit
form only to those four eyes allow, and the unit's answer per report once
submitted. Every button calls the services the API calls, with the signed-in
staff member as the actor. Nothing here is edited by hand: reports open from
the ledger and move by their services.
"""

import csv
import io

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, Q
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.defaultfilters import floatformat
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from unfold.admin import ModelAdmin
from unfold.contrib.filters.admin import ChoicesDropdownFilter, RangeDateFilter
from unfold.decorators import action, display

from backoffice.admin.base import EstimatedCountPaginator, StateHistoryInline, object_urls
from backoffice.admin.dashboard import register_card
from backoffice.errors import DomainError
from compliance.casework import deadlines
from compliance.casework.choices import Priority
from compliance.reporting import charts
from compliance.reporting.choices import BatchStatus, ThresholdReportStatus
from compliance.reporting.deadlines import ESWATINI, NOT_FILED, filing_priority, last_filing_day, report_overdue
from compliance.reporting.models import (
    ThresholdReport,
    ThresholdReportBatch,
    ThresholdReportBatchEvent,
    ThresholdReportEvent,
)
from compliance.reporting.selectors.statistics import CSV_HEADER, csv_rows, regulator_statistics
from compliance.reporting.services.threshold import (
    threshold_batch_check,
    threshold_batch_export,
    threshold_batch_prepare,
    threshold_batch_submit,
    threshold_report_answer,
)
from compliance.sars.admin.mywork import overdue_sars
from compliance.sars.choices import ActivityType

STATUS_LABELS = {
    ThresholdReportStatus.PENDING: "warning",
    ThresholdReportStatus.BATCHED: "info",
    ThresholdReportStatus.SUBMITTED: "info",
    ThresholdReportStatus.ACCEPTED: "success",
    ThresholdReportStatus.REJECTED: "danger",
}


def _can(request, capability: str) -> bool:
    user = request.user
    return bool(getattr(user, "is_authenticated", False) and user.has_capability(capability))


class OverdueFilter(admin.SimpleListFilter):
    title = "filing deadline"
    parameter_name = "deadline"

    def lookups(self, request, model_admin):
        return [("overdue", "Overdue (not filed, past the deadline)"), ("late", "Filed late")]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "overdue":
            return queryset.filter(status__in=NOT_FILED, submitted_at__isnull=True, due_at__lt=now)
        if self.value() == "late":
            return queryset.filter(submitted_at__isnull=False, submitted_at__gt=F("due_at"))
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

    @display(description="Filing clock", label=deadlines.PRIORITY_COLOURS)
    def clock(self, obj):
        priority = filing_priority(obj)
        label = "Overdue" if report_overdue(obj) and not obj.submitted_at else Priority(priority).label
        return priority, label

    @display(description="File by", ordering="due_at")
    def filing_due(self, obj):
        return last_filing_day(obj)

    @display(description="Filing deadline")
    def filing_deadline(self, obj):
        late = report_overdue(obj)
        state = (
            ("filed late" if late else "filed in time")
            if obj.submitted_at
            else ("overdue" if late else "not filed yet")
        )
        return format_html(
            '<span class="vk-badge vk-prio-{}">{}</span> file by the end of {} (Eswatini time) &middot; {}',
            filing_priority(obj),
            Priority(filing_priority(obj)).label,
            last_filing_day(obj),
            state,
        )

    @display(description="Cash transactions")
    def transactions_table(self, obj):
        rows = list(obj.transactions.order_by("created_at", "id"))
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td style='text-align:right'>{}</td></tr>",
            (
                (
                    f"{t.created_at.astimezone(ESWATINI):%Y-%m-%d %H:%M}",
                    t.reference,
                    t.get_type_display(),
                    floatformat(t.amount, "2g"),
                )
                for t in rows
            ),
        )
        return format_html(
            "<table class='vk-table'><thead><tr><th>Time (Eswatini)</th><th>Reference</th><th>Type</th>"
            "<th style='text-align:right'>SZL</th></tr></thead><tbody>{}</tbody></table>",
            body,
        )

    @display(description="Filings and the FIU's answers")
    def filings_table(self, obj):
        filings = list(obj.filings.select_related("batch", "answered_by").order_by("created_at"))
        if not filings:
            return "Not filed yet"
        return format_html_join(
            mark_safe("<br>"),  # noqa: S308 - a constant
            "Batch {} ({}{}): {}{}",
            (
                (
                    str(f.batch_id)[:8],
                    f.batch.get_status_display(),
                    f", FIU reference {f.batch.fiu_reference}" if f.batch.fiu_reference else "",
                    f.get_outcome_display() if f.outcome else "no answer yet",
                    f" — {f.reason}" if f.reason else "",
                )
                for f in filings
            ),
        )

    # ------------------------------------------------------------ pages

    @action(description="Batches", url_path="batches", icon="inventory_2")
    def open_batches(self, request):
        return HttpResponseRedirect(reverse("admin:compliance_thresholdreportbatch_changelist"))

    @action(description="Regulator statistics", url_path="open-statistics", icon="monitoring")
    def open_statistics(self, request):
        return HttpResponseRedirect(reverse("admin:compliance_regulator_statistics"))

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
            buffer = io.StringIO()
            writer = csv.writer(buffer)
            writer.writerow(CSV_HEADER)
            writer.writerows(csv_rows(rows))
            response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="regulator-statistics-{today:%Y-%m}.csv"'
            response["Cache-Control"] = "no-store"
            return response
        labels = [r.month for r in rows]
        types_used = [t for t in ActivityType if any(r.sars_by_type.get(t.value) for r in rows)]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Regulator statistics",
            # what is late right now, beside the months' late filings
            "overdue_now": {
                "sars": len(overdue_sars()),
                "threshold_reports": ThresholdReport.objects.filter(
                    status__in=NOT_FILED, submitted_at__isnull=True, due_at__lt=timezone.now()
                ).count(),
            },
            "rows": rows,
            "months": months,
            "types_used": types_used,
            "table": [(r, [r.sars_by_type.get(t.value, 0) for t in types_used]) for r in rows],
            "csv_url": f"{reverse('admin:compliance_regulator_statistics')}?months={months}&format=csv",
            "charts": [
                charts.bar_chart(
                    title="SARs filed per month, by the FIU's answer",
                    labels=labels,
                    series=[
                        ("Accepted", [r.sars_accepted for r in rows]),
                        ("Rejected", [r.sars_rejected for r in rows]),
                        ("No answer yet", [r.sars_unanswered for r in rows]),
                    ],
                ),
                charts.bar_chart(
                    title="Threshold reports filed, accepted and rejected per month",
                    labels=labels,
                    series=[
                        ("Filed", [r.ctr_filed for r in rows]),
                        ("Accepted", [r.ctr_accepted for r in rows]),
                        ("Rejected", [r.ctr_rejected for r in rows]),
                    ],
                ),
                charts.bar_chart(
                    title="Median days from detection to filing",
                    labels=labels,
                    series=[
                        ("SARs", [r.sar_median_days for r in rows]),
                        ("Threshold reports", [r.ctr_median_days for r in rows]),
                    ],
                    unit=" days",
                ),
                charts.bar_chart(
                    title="Filings made after their legal deadline",
                    labels=labels,
                    series=[
                        ("SARs", [r.sars_overdue for r in rows]),
                        ("Threshold reports", [r.ctr_overdue for r in rows]),
                    ],
                ),
            ],
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
                    "waiting": ThresholdReport.objects.filter(
                        status__in=[ThresholdReportStatus.PENDING, ThresholdReportStatus.REJECTED]
                    ).aggregate(
                        pending=Count("id", filter=Q(status="PENDING")),
                        rejected=Count("id", filter=Q(status="REJECTED")),
                    ),
                },
            )
        if not _can(request, "ctr.prepare"):
            raise PermissionDenied
        try:
            batch = threshold_batch_prepare(actor=request.user)
        except DomainError as exc:
            self.message_user(request, exc.message, messages.WARNING)
            return HttpResponseRedirect(reverse("admin:compliance_thresholdreportbatch_changelist"))
        self.message_user(
            request, "Batch prepared: check each report's validation, then have it submitted.", messages.SUCCESS
        )
        return self._back(batch.pk)

    def get_urls(self):
        routes = {"submit": self.submit_view, "export": self.export_view, "answer/<uuid:report_id>": self.answer_view}
        return object_urls(self, routes) + super().get_urls()

    def _back(self, object_id):
        return HttpResponseRedirect(reverse("admin:compliance_thresholdreportbatch_change", args=[object_id]))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        batch = self.get_object(request, object_id)
        extra_context = extra_context or {}
        if batch is not None:
            configured, checks = threshold_batch_check(batch=batch)
            by_report = {c.report_id: c for c in checks}
            reports = list(
                ThresholdReport.objects.filter(filings__batch=batch)
                .select_related("user")
                .order_by("day", "created_at", "id")
            )
            filings = {f.report_id: f for f in batch.filings.select_related("resubmits__batch")}
            user = request.user
            extra_context.update(
                {
                    "batch": batch,
                    "schema_configured": configured,
                    "rows": [(r, filings[r.pk], by_report[r.pk]) for r in reports],
                    "invalid": sum(1 for c in checks if c.errors),
                    "may_submit": batch.status == BatchStatus.PREPARED
                    and user.has_capability("ctr.submit")
                    and batch.created_by_id != user.pk,
                    "is_preparer": batch.created_by_id == user.pk,
                    "may_answer": user.has_capability("ctr.submit"),
                    "export_url": reverse("admin:compliance_thresholdreportbatch_export", args=[batch.pk]),
                    "submit_url": reverse("admin:compliance_thresholdreportbatch_submit", args=[batch.pk]),
                }
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def submit_view(self, request, object_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        batch = get_object_or_404(ThresholdReportBatch, pk=object_id)
        try:
            threshold_batch_submit(batch=batch, actor=request.user, fiu_reference=request.POST.get("fiu_reference", ""))
        except DomainError as exc:
            reasons = [f"{name}: {errors[0]}" for name, errors in (exc.details or {}).items() if errors][:5]
            self.message_user(request, " ".join([exc.message, *reasons]), messages.ERROR)
        else:
            self.message_user(request, "Batch submitted to the FIU.", messages.SUCCESS)
        return self._back(object_id)

    def answer_view(self, request, object_id, report_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        report = get_object_or_404(ThresholdReport, pk=report_id, batch_id=object_id)
        accepted = request.POST.get("answer") == "accepted"
        try:
            threshold_report_answer(
                report=report, actor=request.user, accepted=accepted, reason=request.POST.get("reason", "")[:5000]
            )
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)
        else:
            self.message_user(
                request, f"The FIU's answer is recorded: {'accepted' if accepted else 'rejected'}.", messages.SUCCESS
            )
        return self._back(object_id)

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
    now = timezone.now()
    counts = ThresholdReport.objects.aggregate(
        waiting=Count("id", filter=Q(status__in=[ThresholdReportStatus.PENDING, ThresholdReportStatus.REJECTED])),
        overdue=Count("id", filter=Q(status__in=NOT_FILED, submitted_at__isnull=True, due_at__lt=now)),
        unanswered=Count("id", filter=Q(status=ThresholdReportStatus.SUBMITTED)),
    )
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
            "hint": "Past the legal deadline (CTR_FILING_DAYS), not with the FIU",
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
