"""The alert triage queue and the alert page: triage where the evidence is, deadlines in colour.

The queue sorts by severity then age and shows each alert's priority (the
share of its SLA spent, ``compliance.casework.deadlines``), due time and assignee. Its
actions (assign to me, assign to a colleague, start review, close as false
positive) go through one confirmation page that asks for what the action needs
(a colleague; a reason code and a note) and warns about alerts assigned to
someone else. The alert page shows the finding in words with the rule's
thresholds, the transactions with their counterparties, the history in words,
and the triage buttons the alert's state allows. Everything calls
``compliance.aml.services.alerts``, the same path as the API.

"File a SAR" drafts a SAR through the SAR service (``sar_create_from_alert``): the
alert's user, its transactions and their total, the alert linked and escalated
("SAR in progress") in the same transaction; the officer lands on the new SAR
to complete it. The alert closes as SAR filed when the report is submitted.
The page's comments and evidence files are the case work section
(``compliance.casework.admin.casework``).
"""

import json
from functools import partial

from django import forms
from django.contrib import admin, messages
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from unfold.admin import ModelAdmin
from unfold.decorators import display

from backoffice.admin.actions import Done, object_action
from backoffice.admin.base import DefaultChoiceFilter, EstimatedCountPaginator, object_urls
from backoffice.admin.dashboard import register_card
from backoffice.errors import DomainError
from backoffice.limits import NOTE_MAX_LENGTH
from compliance.aml import evidence, hooks
from compliance.aml.choices import OFFICER_CLOSE_REASONS, AlertStatus
from compliance.aml.filtersets import severity_rank
from compliance.aml.models.alerts import ALERT_TRANSITIONS, OPEN_STATES, Alert
from compliance.aml.selectors.triage import (
    alert_history,
    alert_page_prefetch,
    alert_reports,
    alert_rule_conditions,
    alert_work_counts,
    alerts_of_priority,
    alerts_with_assignee,
    assignable_staff,
)
from compliance.aml.services import alerts as services
from compliance.aml.services.alert_queue import QUEUE_ACTIONS, alert_queue_apply, alert_triage_step, held_by_others
from compliance.casework import deadlines
from compliance.casework.admin.casework import CaseWorkAdminMixin
from compliance.casework.choices import Priority, Severity

SEVERITY_COLOURS = {"CRITICAL": "danger", "HIGH": "warning", "MEDIUM": "info", "LOW": "success"}
STATUS_COLOURS = {
    AlertStatus.OPEN: "info",
    AlertStatus.UNDER_REVIEW: "warning",
    AlertStatus.ESCALATED: "danger",
    AlertStatus.CLOSED_FALSE_POSITIVE: "success",
    AlertStatus.CLOSED_SAR_FILED: "success",
    AlertStatus.CLOSED_TRUE_POSITIVE: "success",
}


class QueueFilter(DefaultChoiceFilter):
    """Open work by default: closed alerts leave the queue unless asked for."""

    title = "queue"
    parameter_name = "queue"
    default = "open"

    def lookups(self, request, model_admin):
        return [("open", "Open, in review or escalated"), ("closed", "Closed"), ("all", "All alerts")]

    def queryset(self, request, queryset):
        value = self.current()
        if value == "open":
            return queryset.filter(status__in=OPEN_STATES)
        if value == "closed":
            return queryset.exclude(status__in=OPEN_STATES)
        return queryset


class AssigneeFilter(admin.SimpleListFilter):
    title = "assignee"
    parameter_name = "assignee"

    def lookups(self, request, model_admin):
        return [("me", "Assigned to me"), ("none", "Unassigned"), ("others", "Assigned to someone else")]

    def queryset(self, request, queryset):
        if self.value() == "me":
            return queryset.filter(assigned_to=request.user)
        if self.value() == "none":
            return queryset.filter(assigned_to__isnull=True)
        if self.value() == "others":
            return queryset.exclude(assigned_to=request.user).exclude(assigned_to__isnull=True)
        return queryset


class PriorityFilter(admin.SimpleListFilter):
    """Open alerts by the share of their SLA spent; BREACHED is the overdue list."""

    title = "priority"
    parameter_name = "priority"

    def lookups(self, request, model_admin):
        return Priority.choices

    def queryset(self, request, queryset):
        value = self.value()
        return alerts_of_priority(queryset, value) if value in Priority.values else queryset


_KEPT = "alert_triage_kept"


def _keep_choices(request, object_id) -> None:
    """A refused triage step redirects back to the alert page: keep the reason, note and colleague chosen, so the
    officer corrects what was missing instead of choosing everything again."""
    request.session[_KEPT] = {
        "alert": str(object_id),
        "reason_code": request.POST.get("reason_code", "")[:64],
        "note": request.POST.get("note", "")[:NOTE_MAX_LENGTH],
        "assignee": request.POST.get("assignee", "")[:64],
    }


class BulkForm(forms.Form):
    assignee = forms.ModelChoiceField(queryset=None, required=False, label="Colleague")
    reason_code = forms.ChoiceField(choices=[("", "Choose a reason"), *OFFICER_CLOSE_REASONS], required=False)
    note = forms.CharField(max_length=NOTE_MAX_LENGTH, required=False, widget=forms.Textarea(attrs={"rows": 3}))
    confirm_others = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assignee"].queryset = assignable_staff()


BULK_ACTIONS = QUEUE_ACTIONS


@admin.register(Alert)
class AlertAdmin(CaseWorkAdminMixin, ModelAdmin):
    """The triage queue. Only compliance roles have the view permission (tipping-off)."""

    casework_kind = "alert"

    def casework_extra_context(self, request, alert) -> dict:
        reports = alert_reports(alert)
        return {
            "reports": [
                {
                    "sar": sar,
                    "in_progress": sar.in_progress,
                    "url": reverse("admin:compliance_sar_change", args=[sar.pk]),
                }
                for sar in reports
            ]
        }

    list_display = (
        "severity_badge",
        "priority_badge",
        "status_badge",
        "finding_title",
        "user",
        "assigned_to",
        "due_display",
        "age_display",
    )
    list_filter = (
        QueueFilter,
        PriorityFilter,
        AssigneeFilter,
        "status",
        "severity",
        "alert_type",
        ("assigned_to", admin.RelatedOnlyFieldListFilter),
        "rule",
    )
    list_select_related = ("rule", "user", "assigned_to")
    # what the list shows: the customer, and the finding as "rule id + rule name"
    search_fields = ("user__first_name", "user__last_name", "user__phone_number", "rule__rule_id", "rule__name")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    # the history is shown once, as sentences, by the triage template (alert_triage.html): no raw inline table
    inlines = []
    actions = list(BULK_ACTIONS) + ["file_sar"]
    change_form_outer_before_template = "compliance/alert_triage.html"
    fieldsets = (
        ("Alert", {"fields": ("alert_type", "rule", "rule_version", "user", "severity", "created_at", "updated_at")}),
        ("Figures as recorded", {"classes": ("collapse",), "fields": ("details_text",)}),
        ("File a SAR", {"fields": ("file_sar_link",)}),
    )
    readonly_fields = (
        "alert_type",
        "rule",
        "rule_version",
        "user",
        "severity",
        "created_at",
        "updated_at",
        "details_text",
        "file_sar_link",
    )

    def get_queryset(self, request):
        # annotate before ordering: the default get_queryset orders by the rank it does not know yet
        qs = self.model._default_manager.get_queryset().annotate(
            severity_rank=severity_rank(), due_at=deadlines.alert_due_expression()
        )
        return qs.order_by(*self.get_ordering(request))

    def get_object(self, request, object_id, from_field=None):
        """One alert with its rule, subject, assignee and transactions in a fixed number of queries."""
        alert = super().get_object(request, object_id, from_field)
        return alert_page_prefetch(alert) if alert is not None else None

    def get_ordering(self, request):
        return ("-severity_rank", "-created_at")

    # ------------------------------------------------------------ columns

    @display(description="Severity", ordering="severity_rank", label=SEVERITY_COLOURS)
    def severity_badge(self, obj):
        return obj.severity, obj.get_severity_display()

    @display(description="Deadline", label=deadlines.PRIORITY_COLOURS)
    def priority_badge(self, obj):
        if obj.is_closed:
            return None  # a closed alert has no deadline left to watch
        priority = deadlines.alert_priority(obj)
        return priority, deadlines.PRIORITY_WORDS[priority].capitalize()

    @display(description="Status", ordering="status", label=STATUS_COLOURS)
    def status_badge(self, obj):
        return obj.status, obj.get_status_display()

    @display(description="Finding", ordering="rule__rule_id")
    def finding_title(self, obj):
        if obj.rule_id:
            return f"{obj.rule.rule_id} {obj.rule.name}"
        return obj.get_alert_type_display()

    @display(description="Due", ordering="due_at")
    def due_display(self, obj):
        due = deadlines.alert_due_at(obj)
        if obj.is_closed:
            return f"{due:%Y-%m-%d %H:%M}"
        now = timezone.now()
        when = f"overdue by {deadlines.ageing(now - due)}" if due < now else f"in {deadlines.ageing(due - now)}"
        return format_html('{} <span class="vk-muted">({})</span>', f"{due:%Y-%m-%d %H:%M}", when)

    @display(description="Age", ordering="created_at")
    def age_display(self, obj):
        return deadlines.ageing(timezone.now() - obj.created_at)

    @admin.display(description="Figures as recorded")
    def details_text(self, obj):
        return format_html("<pre>{}</pre>", json.dumps(obj.details, indent=1, sort_keys=True))

    @admin.display(description="File a SAR")
    def file_sar_link(self, obj):
        if obj.is_closed:
            return "Closed alerts cannot be filed again."
        # formaction: the page is one form already, and forms cannot nest
        url = reverse("admin:compliance_alert_file_sar", args=[obj.pk])
        return format_html(
            '<button type="submit" class="vk-button" formaction="{}" formmethod="post" data-testid="draft-sar">'
            "Draft a SAR from this alert</button>",
            url,
        )

    # ------------------------------------------------------------ the alert page

    def change_view(self, request, object_id, form_url="", extra_context=None):
        alert = self.get_object(request, object_id)
        extra_context = extra_context or {}
        if alert is not None:
            extra_context.update(self._triage_context(request, alert))
            # what the officer chose in a triage step that was refused (kept for this one page after the redirect)
            kept = request.session.pop(_KEPT, None) if request.method == "GET" else None
            extra_context["triage_kept"] = kept if kept and kept.get("alert") == str(alert.pk) else {}
        return super().change_view(request, object_id, form_url, extra_context)

    def _triage_context(self, request, alert) -> dict:
        transactions = list(alert.related_transactions.all())  # prefetched by get_object
        conditions = alert_rule_conditions(alert)
        events = alert_history(alert)
        now = timezone.now()
        due = deadlines.alert_due_at(alert)
        may_act = self.has_triage_permission(request)
        moves = {to for (frm, to) in ALERT_TRANSITIONS if frm == alert.status} if may_act else set()
        others = bool(held_by_others([alert], actor=request.user))
        return {
            "alert_obj": alert,
            "finding": evidence.finding(alert, conditions, transactions, occupation=alert.user.occupation),
            "transactions": transactions,
            "transactions_total": sum((t.amount for t in transactions), start=0),
            "history": [(e, evidence.history_sentence(e)) for e in events],
            "due": due,
            "overdue": not alert.is_closed and due < now,
            "due_in": deadlines.ageing(due - now),
            "age": deadlines.ageing(now - alert.created_at),
            "priority": deadlines.alert_priority(alert, now=now),
            "priority_words": deadlines.PRIORITY_WORDS[deadlines.alert_priority(alert, now=now)],
            "may_triage": may_act,
            "moves": moves,
            "statuses": AlertStatus,
            "close_reasons": OFFICER_CLOSE_REASONS,
            "colleagues": list(assignable_staff().exclude(pk=request.user.pk)) if may_act else [],
            "assigned_to_other": others,
            "triage_url": reverse("admin:compliance_alert_triage", args=[alert.pk]),
        }

    def get_urls(self):
        routes = {"file-sar": self.file_sar_view, "triage": self.triage_view}
        return object_urls(self, routes, pk="path") + super().get_urls()

    def has_triage_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("compliance.change_alert")

    def triage_view(self, request, object_id):
        """One triage step from the alert page: assign, review, escalate, close, reopen (POST only)."""

        def step(alert):
            if held_by_others([alert], actor=request.user) and not request.POST.get("confirm_others"):
                _keep_choices(request, object_id)
                name = alert.assigned_to.full_name or alert.assigned_to.email
                warning = f"This alert is assigned to {name}. Tick the confirmation to act on it anyway."
                return Done(warning, level=messages.WARNING)
            return self._triage(request, alert, request.POST.get("op", ""))

        return object_action(
            self,
            request,
            object_id,
            step,
            back=reverse("admin:compliance_alert_change", args=[object_id]),
            lookup=partial(get_object_or_404, alerts_with_assignee(), pk=object_id),
            allowed=self.has_triage_permission,
            refused="Your role may not work on alerts.",
            on_error=partial(_keep_choices, object_id=object_id),
        )

    def _triage(self, request, alert, op: str) -> str:
        moved = alert_triage_step(
            alert=alert,
            actor=request.user,
            op=op,
            note=request.POST.get("note", ""),
            reason_code=request.POST.get("reason_code", ""),
            assignee_id=request.POST.get("assignee") or None,
        )
        if op == "assign_me":
            return "The alert is assigned to you."
        if op == "assign":
            assignee = moved.assigned_to
            return f"Assigned to {assignee.full_name or assignee.email}." if assignee else "Unassigned."
        return f"The alert is now {moved.get_status_display().lower()}."

    def file_sar_view(self, request, object_id):
        return object_action(
            self,
            request,
            object_id,
            partial(self._file_sar, request),
            back=reverse("admin:compliance_alert_change", args=[object_id]),
            allowed=self.has_change_permission,
        )

    def _file_sar(self, request, alert) -> Done:
        sar = hooks.sar_from_alert.first(alert=alert, actor=request.user)
        return Done(
            f"SAR {sar.sar_id} drafted from the alert; the alert is escalated until the SAR is submitted.",
            reverse("admin:compliance_sar_change", args=[sar.pk]),
        )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        # the queue's actions need it; one alert's page stays read-only (moves go through the triage buttons)
        return obj is None and request.user.has_perm("compliance.change_alert")

    # ------------------------------------------------------------ queue actions

    def _bulk(self, request, queryset, action: str):
        """One confirmation page for every queue action: what it needs, and who else holds the alerts."""
        alerts = list(queryset.select_related("rule", "user", "assigned_to")[: services.BULK_MAX + 1])
        if len(alerts) > services.BULK_MAX:
            self.message_user(request, f"Select at most {services.BULK_MAX} alerts at once.", messages.ERROR)
            return None
        form = BulkForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            try:
                result = alert_queue_apply(actor=request.user, action=action, alerts=alerts, **form.cleaned_data)
            except DomainError as exc:
                form.add_error(None, exc.said)
            else:
                if result.updated:
                    done = f"{BULK_ACTIONS[action]}: {result.updated} alert(s) done."
                    self.message_user(request, done, messages.SUCCESS)
                for pk, message in result.errors:
                    self.message_user(request, f"Alert {pk[:8]}: {message}", messages.ERROR)
                return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"{BULK_ACTIONS[action]}: {len(alerts)} alert(s)",
            "alerts": alerts,
            "selected": alerts,
            "others": held_by_others(alerts, actor=request.user),
            "form": form,
            "action": action,
            "action_label": BULK_ACTIONS[action],
        }
        return TemplateResponse(request, "compliance/alert_bulk.html", context)

    @admin.action(description="Assign to me", permissions=["change"])
    def assign_to_me(self, request, queryset):
        return self._bulk(request, queryset, "assign_to_me")

    @admin.action(description="Assign to a colleague…", permissions=["change"])
    def assign_to_colleague(self, request, queryset):
        return self._bulk(request, queryset, "assign_to_colleague")

    @admin.action(description="Start review", permissions=["change"])
    def start_review(self, request, queryset):
        return self._bulk(request, queryset, "start_review")

    @admin.action(description="Close as false positive…", permissions=["change"])
    def close_false_positive(self, request, queryset):
        return self._bulk(request, queryset, "close_false_positive")

    @admin.action(description="File a SAR from the alert", permissions=["change"])
    def file_sar(self, request, queryset):
        alerts = list(queryset[:2])
        if len(alerts) != 1:
            self.message_user(request, "Select exactly one alert to file a SAR from.", messages.WARNING)
            return None
        return self.file_sar_view(request, alerts[0].pk)


@register_card
def _alert_cards(request):
    if not request.user.has_perm("compliance.view_alert"):
        return []
    counts = alert_work_counts(request.user)
    link = reverse("admin:compliance_alert_changelist")
    cards = [
        {
            "title": "Alerts assigned to me",
            "value": counts["mine"],
            "hint": f"{counts['mine_overdue']} overdue" if counts["mine_overdue"] else "Still open",
            "link": f"{link}?assignee=me",
            "group": "my work",
            "tone": "danger" if counts["mine_overdue"] else "",
        },
        {
            "title": "Overdue alerts",
            "value": counts["overdue"],
            "hint": "Past their SLA, still open",
            "link": f"{link}?priority={Priority.BREACHED}",
            "group": "my work",
            "tone": "danger" if counts["overdue"] else "",
        },
        {
            "title": "Unassigned alerts",
            "value": counts["unassigned"],
            "hint": "Waiting for someone to take them",
            "link": f"{link}?assignee=none",
            "group": "my work",
        },
    ]
    cards += [
        {
            "title": f"Open {Severity(s).label.lower()} alerts",
            "value": counts[s.lower()],
            "hint": "Open, in review or escalated",
            "link": f"{link}?severity__exact={s}",
        }
        for s in reversed(Severity.values)
    ]
    return cards
