"""The alert triage queue: most severe first, assign to me, review, close as false positive, file a SAR.

"File a SAR" drafts a SAR through the SAR service (``sar_create_from_alert``): the
alert's user, its transactions and their total, the alert linked and escalated
("SAR in progress") in the same transaction; the officer lands on the new SAR
to complete it. The alert closes as SAR filed when the report is submitted.
The page's comments and evidence files are the case work section
(``compliance.admin.casework``).
"""

import json

from django.contrib import admin, messages
from django.db.models import Count, Prefetch, Q, prefetch_related_objects
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from unfold.admin import ModelAdmin
from unfold.decorators import display

from backoffice.admin_base import EstimatedCountPaginator, StateHistoryInline
from backoffice.dashboard import register_card
from backoffice.errors import DomainError
from compliance.admin.casework import CaseWorkAdminMixin
from compliance.choices import AlertStatus, Severity
from compliance.filtersets import severity_rank
from compliance.models import Alert, AlertEvent
from compliance.models.alerts import OPEN_STATES
from compliance.services import alerts as services
from compliance.services.sar import sar_create_from_alert
from kyc.models import Transaction


class QueueFilter(admin.SimpleListFilter):
    """Open work by default: closed alerts leave the queue unless asked for."""

    title = "queue"
    parameter_name = "queue"

    def lookups(self, request, model_admin):
        return [("open", "Open, in review or escalated"), ("closed", "Closed"), ("all", "All alerts")]

    def choices(self, changelist):
        current = self.value() or "open"
        for value, label in self.lookup_choices:
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request, queryset):
        value = self.value() or "open"
        if value == "open":
            return queryset.filter(status__in=OPEN_STATES)
        if value == "closed":
            return queryset.exclude(status__in=OPEN_STATES)
        return queryset


class AlertEventInline(StateHistoryInline):
    model = AlertEvent
    verbose_name = "event"


@admin.register(Alert)
class AlertAdmin(CaseWorkAdminMixin, ModelAdmin):
    """The triage queue. Only compliance roles have the view permission (tipping-off)."""

    casework_kind = "alert"
    list_display = ("severity_badge", "status", "rule", "user", "assigned_to", "created_at")
    list_filter = (
        QueueFilter,
        "status",
        "severity",
        "alert_type",
        ("assigned_to", admin.RelatedOnlyFieldListFilter),
        "rule",
    )
    list_select_related = ("rule", "user", "assigned_to")
    search_fields = ("user__first_name", "user__last_name", "user__phone_number", "rule__rule_id")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    inlines = [AlertEventInline]
    actions = ["assign_to_me", "start_review", "close_false_positive", "file_sar"]
    fields = (
        "alert_type",
        "rule",
        "rule_version",
        "user",
        "severity",
        "status",
        "assigned_to",
        "details_text",
        "transactions",
        "file_sar_link",
        "created_at",
        "updated_at",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        # annotate before ordering: the default get_queryset orders by the rank it does not know yet
        qs = self.model._default_manager.get_queryset().annotate(severity_rank=severity_rank())
        return qs.order_by(*self.get_ordering(request))

    def get_object(self, request, object_id, from_field=None):
        """One alert with its rule, subject, assignee and transactions in a fixed number of queries."""
        alert = super().get_object(request, object_id, from_field)
        if alert is not None:
            prefetch_related_objects(
                [alert],
                "rule",
                "user",
                "assigned_to",
                Prefetch("related_transactions", queryset=Transaction.objects.order_by("created_at", "id")),
            )
        return alert

    def get_ordering(self, request):
        return ("-severity_rank", "-created_at")

    @display(
        description="Severity",
        ordering="severity_rank",
        label={"CRITICAL": "danger", "HIGH": "warning", "MEDIUM": "info", "LOW": "success"},
    )
    def severity_badge(self, obj):
        return obj.severity

    @admin.display(description="Details")
    def details_text(self, obj):
        return format_html("<pre>{}</pre>", json.dumps(obj.details, indent=1, sort_keys=True))

    @admin.display(description="Transactions")
    def transactions(self, obj):
        rows = obj.related_transactions.all()  # prefetched in order by get_object
        return format_html_join(
            "",
            "<div>{} {} {} SZL ({})</div>",
            ((tx.created_at.strftime("%Y-%m-%d %H:%M"), tx.type, tx.amount, tx.reference) for tx in rows),
        )

    @admin.display(description="File a SAR")
    def file_sar_link(self, obj):
        if obj.is_closed:
            return "Closed alerts cannot be filed again."
        # formaction: the page is one form already, and forms cannot nest
        url = reverse("admin:compliance_alert_file_sar", args=[obj.pk])
        return format_html(
            '<button type="submit" class="button" formaction="{}" formmethod="post">'
            "Draft a SAR from this alert</button>",
            url,
        )

    def get_urls(self):
        view = self.admin_site.admin_view(self.file_sar_view)
        return [path("<path:object_id>/file-sar/", view, name="compliance_alert_file_sar"), *super().get_urls()]

    def file_sar_view(self, request, object_id):
        alert = get_object_or_404(Alert, pk=object_id)
        if request.method != "POST" or not self.has_change_permission(request):
            return HttpResponseRedirect(reverse("admin:compliance_alert_change", args=[alert.pk]))
        return self._file_sar(request, alert)

    def _file_sar(self, request, alert):
        try:
            sar = sar_create_from_alert(alert=alert, actor=request.user)
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:compliance_alert_change", args=[alert.pk]))
        self.message_user(
            request,
            f"SAR {sar.sar_id} drafted from the alert; the alert is escalated until the SAR is submitted.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:compliance_sar_change", args=[sar.pk]))

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _each(self, request, queryset, fn, done_message):
        done = 0
        for alert in queryset:
            try:
                fn(alert)
                done += 1
            except DomainError as exc:
                self.message_user(request, f"Alert {alert.pk}: {exc.message}", messages.ERROR)
        if done:
            self.message_user(request, done_message.format(done), messages.SUCCESS)

    @admin.action(description="Assign to me", permissions=["change"])
    def assign_to_me(self, request, queryset):
        self._each(
            request,
            queryset,
            lambda a: services.alert_assign(alert=a, actor=request.user, assignee=request.user),
            "{} alert(s) assigned to you.",
        )

    @admin.action(description="Start review", permissions=["change"])
    def start_review(self, request, queryset):
        self._each(
            request,
            queryset,
            lambda a: services.alert_transition(
                alert=a, actor=request.user, to_status=AlertStatus.UNDER_REVIEW, note="Review started from the queue."
            ),
            "{} alert(s) under review.",
        )

    @admin.action(description="Close as false positive", permissions=["change"])
    def close_false_positive(self, request, queryset):
        note = f"Closed as a false positive from the triage queue by {request.user.email}."
        self._each(
            request,
            queryset,
            lambda a: services.alert_transition(
                alert=a, actor=request.user, to_status=AlertStatus.CLOSED_FALSE_POSITIVE, note=note
            ),
            "{} alert(s) closed as false positive.",
        )

    @admin.action(description="File a SAR from the alert", permissions=["change"])
    def file_sar(self, request, queryset):
        alerts = list(queryset[:2])
        if len(alerts) != 1:
            self.message_user(request, "Select exactly one alert to file a SAR from.", messages.WARNING)
            return None
        return self._file_sar(request, alerts[0])

    def has_change_permission(self, request, obj=None):
        # the queue's actions need it; one alert's page stays read-only (moves go through the actions or the API)
        return obj is None and request.user.has_perm("compliance.change_alert")


@register_card
def _alert_cards(request):
    if not request.user.has_perm("compliance.view_alert"):
        return []
    counts = Alert.objects.filter(status__in=OPEN_STATES).aggregate(
        **{s.lower(): Count("id", filter=Q(severity=s)) for s in Severity.values},
        mine=Count("id", filter=Q(assigned_to=request.user)),
    )
    link = reverse("admin:compliance_alert_changelist")
    cards = [
        {
            "title": f"Open {s.lower()} alerts",
            "value": counts[s.lower()],
            "hint": "Open, in review or escalated",
            "link": f"{link}?severity__exact={s}",
        }
        for s in reversed(Severity.values)
    ]
    cards.append(
        {
            "title": "Alerts assigned to me",
            "value": counts["mine"],
            "hint": "Still open",
            "link": f"{link}?assigned_to__id__exact={request.user.pk}",
        }
    )
    return cards
