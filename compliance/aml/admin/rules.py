"""AML rules in the admin site: a form per rule type, change control, version diffs, outcomes and backtests.

Every write goes through the services: ``governance.rule_change`` decides
whether a change applies at once or waits for a second person
(``RULE_FOUR_EYES``); the page says which happened.
"""

import datetime as dt

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from unfold.admin import ModelAdmin

from backoffice.admin.base import ServiceErrorsAdminMixin, object_urls
from backoffice.errors import DomainError
from compliance.aml.admin.rule_forms import (
    field_name,
    form_for,
    initial_value,
    json_value,
    parameter_field,
    parameter_field_names,
)
from compliance.aml.choices import RuleType
from compliance.aml.engine import backtest as backtests
from compliance.aml.engine.parameters import LABELS, Label, format_value, parameters_of
from compliance.aml.models.rules import AMLRule
from compliance.aml.selectors import outcomes as outcome_selectors
from compliance.aml.selectors import rules as selectors
from compliance.aml.services import governance
from compliance.aml.services import rules as services
from compliance.casework.choices import Severity

PERIODS = {"30": 30, "90": 90, "365": 365}
DEFAULT_PERIOD = "90"
GRAVE = (Severity.HIGH, Severity.CRITICAL)
CUSTOM = "custom"


def _period_days(request) -> int:
    return PERIODS.get(request.GET.get("period", DEFAULT_PERIOD), PERIODS[DEFAULT_PERIOD])


def _once(method):
    """Compute a read-only panel once per object and page: the admin's templates may ask for it several times."""
    attr = f"_panel_{method.__name__}"

    def wrapper(self, obj):
        if not hasattr(obj, attr):
            setattr(obj, attr, method(self, obj))
        return getattr(obj, attr)

    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


def _hours(hours: float | None) -> str:
    if hours is None:
        return "—"
    return f"{hours:.1f} h" if hours < 48 else f"{hours / 24:.1f} d"


def _show(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


class OutcomePeriodFilter(admin.SimpleListFilter):
    """Chooses the period of the outcome columns; it filters nothing."""

    title = "outcome period"
    parameter_name = "period"

    def lookups(self, request, model_admin):
        return [("30", "Last 30 days"), ("90", "Last 90 days"), ("365", "Last 365 days")]

    def value(self):
        return super().value() or DEFAULT_PERIOD

    def choices(self, changelist):
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request, queryset):
        return queryset


class OutcomeChangeList(ChangeList):
    """Attaches each listed rule's outcomes over the chosen period (three queries for the page)."""

    def get_results(self, request):
        super().get_results(request)
        since = timezone.now() - dt.timedelta(days=_period_days(request))
        outcomes = outcome_selectors.rule_outcomes(self.result_list, since=since)
        for rule in self.result_list:
            rule.outcome = outcomes[rule.pk]


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label="Reason (kept with each new version)")
    confirm_grave = forms.BooleanField(required=False, label="Yes, switch off these HIGH or CRITICAL rules")


class BacktestForm(forms.Form):
    since = forms.DateTimeField(label="From", widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    until = forms.DateTimeField(label="To", widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    proposal = forms.ChoiceField(required=False, label="Try instead", choices=())

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("since") and cleaned.get("until") and cleaned["since"] > cleaned["until"]:
            self.add_error("until", "Must not be before From.")
        return cleaned


@admin.register(AMLRule)
class AMLRuleAdmin(ServiceErrorsAdminMixin, ModelAdmin):
    """Officers read the rules and their outcomes; MLROs and admins change them. Every change is a new version."""

    list_display = (
        "rule_id",
        "name",
        "rule_type",
        "severity",
        "on_hit",
        "is_active",
        "version",
        "hits",
        "fp_rate",
        "sar_rate",
        "median_close",
        "review",
    )
    list_filter = (OutcomePeriodFilter, "rule_type", "is_active", "severity")
    search_fields = ("rule_id", "name", "description", "category")

    @admin.display(description="On a hit")
    def on_hit(self, obj):
        return {"BLOCK": "Block", "HOLD": "Hold for review", "ALERT": "Alert only"}[obj.hit_action]

    ordering = ("priority", "rule_id")
    readonly_fields = (
        "rule_type",
        "version",
        "created_at",
        "updated_at",
        "pending_proposals",
        "version_history",
        "outcome_chart",
        "backtest_link",
        "parameters_display",
    )
    actions = ["toggle_selected"]

    # ---------------------------------------------------------------- list columns (outcomes)

    def get_changelist(self, request, **kwargs):
        return OutcomeChangeList

    @admin.display(description="Hits")
    def hits(self, obj):
        return obj.outcome.hits if hasattr(obj, "outcome") else "—"

    @admin.display(description="False positives")
    def fp_rate(self, obj):
        rate = getattr(getattr(obj, "outcome", None), "false_positive_rate", None)
        return "—" if rate is None else f"{rate:.0%}"

    @admin.display(description="SARs")
    def sar_rate(self, obj):
        rate = getattr(getattr(obj, "outcome", None), "sar_rate", None)
        return "—" if rate is None else f"{rate:.0%}"

    @admin.display(description="Median time to close")
    def median_close(self, obj):
        return _hours(getattr(getattr(obj, "outcome", None), "median_hours_to_close", None))

    @admin.display(description="Review")
    def review(self, obj):
        flags = getattr(getattr(obj, "outcome", None), "flags", [])
        return format_html('<span class="vk-warning">{}</span>', "; ".join(flags)) if flags else ""

    # ---------------------------------------------------------------- the form per rule type

    def _rule_type(self, request, obj) -> str | None:
        wanted = request.GET.get("rule_type")
        if wanted in RuleType.values:
            return wanted
        return obj.rule_type if obj is not None and obj.rule_type in RuleType.values else None

    def get_form(self, request, obj=None, change=False, **kwargs):
        rule_type = self._rule_type(request, obj) or RuleType.THRESHOLD
        kwargs["form"] = form_for(rule_type)
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        rule_type = self._rule_type(request, obj) or RuleType.THRESHOLD
        basics = ["name", "category", "severity", "priority", "is_active"]
        if obj is None:
            basics.insert(0, "rule_id")
        may_change = self.has_change_permission(request, obj) if obj is not None else True
        fieldsets = [
            (None, {"fields": basics}),
            (
                f"Parameters: {RuleType(rule_type).label}",
                {"fields": parameter_field_names(rule_type) if may_change else ["parameters_display"]},
            ),
            ("Description", {"fields": ["description", "generate_description"]}),
            ("Actions", {"fields": ["actions"], "description": 'JSON, e.g. {"createAlert": true}'}),
            ("Change", {"fields": ["reason", "confirm_disable"] if obj is not None else ["reason"]}),
        ]
        if obj is not None:
            fieldsets[0][1]["fields"] = ["rule_id", "rule_type", *basics, "version", "updated_at"]
            fieldsets.append(("Proposed changes", {"fields": ["pending_proposals"]}))
            fieldsets.append(("Versions", {"fields": ["version_history"]}))
            fieldsets.append(("Outcomes", {"fields": ["outcome_chart", "backtest_link"]}))
        return fieldsets

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        return (*fields, "rule_id") if obj else fields

    def add_view(self, request, form_url="", extra_context=None):
        if request.GET.get("rule_type") not in RuleType.values:
            if not self.has_add_permission(request):
                raise PermissionDenied
            context = {
                **self.admin_site.each_context(request),
                "title": "New AML rule: choose its type",
                "opts": self.opts,
                "types": [(value, label, f"{request.path}?rule_type={value}") for value, label in RuleType.choices],
            }
            return TemplateResponse(request, "compliance/rule_type_choice.html", context)
        return super().add_view(request, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        reason = form.cleaned_data.get("reason", "")
        if change:
            current = AMLRule.objects.get(pk=obj.pk)
            candidate = {name: getattr(obj, name) for name in AMLRule.UPDATABLE}
            changes = {name: value for name, value in candidate.items() if getattr(current, name) != value}
            outcome = governance.rule_change(rule=current, actor=request.user, changes=changes, reason=reason)
            request._rule_proposal = outcome.proposal
            obj.refresh_from_db()
            return
        created = services.rule_create(
            actor=request.user,
            rule_id=obj.rule_id,
            name=obj.name,
            conditions=obj.conditions,
            description=obj.description,
            category=obj.category,
            actions=obj.actions or {},
            severity=obj.severity,
            is_active=obj.is_active,
            priority=obj.priority,
            reason=reason,
        )
        obj.pk = created.pk
        obj._state.adding = False

    def response_change(self, request, obj):
        proposal = getattr(request, "_rule_proposal", None)
        if proposal is not None:
            self.message_user(
                request,
                f"Change proposed for {obj.rule_id}: it takes effect when another MLRO or admin approves it.",
                messages.WARNING,
            )
            return HttpResponseRedirect(reverse("admin:compliance_amlrule_change", args=[obj.pk]))
        return super().response_change(request, obj)

    # ---------------------------------------------------------------- read-only panels

    @admin.display(description="Parameters")
    def parameters_display(self, obj):
        params = parameters_of(obj.rule_type)
        rows = [
            (LABELS.get(name, Label(name)).label, format_value(name, param, obj.conditions[name]))
            for name, param in params.items()
            if name in (obj.conditions or {})
        ]
        return format_html(
            '<table class="vk-table" data-testid="rule-parameters"><tbody>{}</tbody></table>',
            format_html_join("", '<tr><th scope="row">{}</th><td>{}</td></tr>', rows),
        )

    @admin.display(description="Waiting for approval")
    @_once
    def pending_proposals(self, obj):
        pending = [p for p in selectors.rule_proposals(obj) if p.status == "PENDING"]
        if not pending:
            return "None."
        diffs = selectors.proposal_diffs(pending)
        rows = []
        for proposal in pending:
            link = reverse("admin:compliance_ruleproposal_change", args=[proposal.pk])
            changes = "; ".join(f"{w}: {_show(a)} → {_show(b)}" for w, a, b in diffs[proposal.pk])
            who = proposal.proposed_by.email if proposal.proposed_by else "—"
            rows.append((link, who, proposal.created_at.strftime("%Y-%m-%d %H:%M"), changes, proposal.reason))
        return format_html(
            '<table class="vk-table" data-testid="pending-proposals"><thead><tr><th>Proposal</th><th>By</th>'
            "<th>When</th><th>Changes</th><th>Why</th></tr></thead><tbody>{}</tbody></table>",
            format_html_join(
                "",
                '<tr><td><a href="{}">open</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
                rows,
            ),
        )

    @admin.display(description="Version history (parameter by parameter)")
    @_once
    def version_history(self, obj):
        rows = []
        for entry in selectors.rule_history(obj):
            version = entry["version"]
            changes = format_html_join(
                "",
                "<div><code>{}</code>: {} → <strong>{}</strong></div>",
                [(w, _show(a), _show(b)) for w, a, b in entry["changes"]],
            )
            rows.append(
                (
                    version.version,
                    version.created_at.strftime("%Y-%m-%d %H:%M"),
                    version.changed_by.email if version.changed_by else "system",
                    version.approved_by.email if version.approved_by else "—",
                    version.reason or "—",
                    changes or "no change",
                )
            )
        return format_html(
            '<table class="vk-table" data-testid="version-history"><thead><tr><th>Version</th><th>When</th>'
            "<th>Proposed by</th><th>Approved by</th><th>Why</th><th>Changes</th></tr></thead><tbody>{}</tbody>"
            "</table>",
            format_html_join("", "<tr><td>v{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    @admin.display(description="Alerts per week (last 90 days)")
    @_once
    def outcome_chart(self, obj):
        since = timezone.now() - dt.timedelta(days=90)
        weeks = outcome_selectors.rule_outcome_weeks(obj, since=since)
        outcome = outcome_selectors.rule_outcomes([obj], since=since)[obj.pk]
        return format_html(
            "{}<p>{} hits; false positives {}; SARs {}; open {}; median time to close {}.{}</p>",
            _svg_chart(weeks),
            outcome.hits,
            outcome.false_positives,
            outcome.sars,
            outcome.open,
            _hours(outcome.median_hours_to_close),
            format_html(" <strong>Review: {}</strong>", "; ".join(outcome.flags)) if outcome.flags else "",
        )

    @admin.display(description="Backtest")
    def backtest_link(self, obj):
        url = reverse("admin:compliance_amlrule_backtest", args=[obj.pk])
        return format_html('<a href="{}">Run this rule (or a proposed change) over a past window</a>', url)

    # ---------------------------------------------------------------- bulk toggle

    @admin.action(description="Enable / disable the selected rules…", permissions=["change"])
    def toggle_selected(self, request, queryset):
        rules = list(queryset.order_by("priority", "rule_id"))
        going_on = [r for r in rules if not r.is_active]
        going_off = [r for r in rules if r.is_active]
        grave = [r for r in going_off if r.severity in GRAVE]
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            if grave and not form.cleaned_data["confirm_grave"]:
                form.add_error("confirm_grave", "Confirm that these HIGH or CRITICAL rules are to be switched off.")
            else:
                return self._toggle(request, rules, form.cleaned_data["reason"])
        context = {
            **self.admin_site.each_context(request),
            "title": "Enable / disable rules",
            "opts": self.opts,
            "going_on": going_on,
            "going_off": going_off,
            "grave": grave,
            "rules": rules,
            "form": form,
            "action": "toggle_selected",
        }
        return TemplateResponse(request, "compliance/rule_toggle_confirm.html", context)

    def _toggle(self, request, rules, reason):
        on, off, proposed = [], [], []
        for rule in rules:
            try:
                outcome = governance.rule_toggle_or_propose(rule=rule, actor=request.user, reason=reason)
            except DomainError as exc:
                self.message_user(request, f"{rule.rule_id}: {exc.message}", messages.ERROR)
                continue
            if outcome.proposed:
                proposed.append(rule.rule_id)
            elif outcome.rule.is_active:
                on.append(rule.rule_id)
            else:
                off.append(rule.rule_id)
        if on:
            self.message_user(request, f"Switched on: {', '.join(on)}.", messages.SUCCESS)
        if off:
            self.message_user(request, f"Switched off: {', '.join(off)}.", messages.SUCCESS)
        if proposed:
            self.message_user(
                request, f"Proposed (waiting for a second person): {', '.join(proposed)}.", messages.WARNING
            )
        return None

    # ---------------------------------------------------------------- backtest page

    def get_urls(self):
        return object_urls(self, {"backtest": self.backtest_view}) + super().get_urls()

    def backtest_view(self, request, object_id):
        if not self.has_view_permission(request):
            raise PermissionDenied
        rule = get_object_or_404(AMLRule, pk=object_id)
        pending = [p for p in selectors.rule_proposals(rule) if p.status == "PENDING" and "conditions" in p.changes]
        now = timezone.now().replace(second=0, microsecond=0)
        params = parameters_of(rule.rule_type)
        initial = {"since": now - dt.timedelta(days=30), "until": now, "proposal": request.GET.get("proposal", "")}
        initial.update({field_name(n): initial_value(p, rule.conditions.get(n)) for n, p in params.items()})
        form = BacktestForm(request.POST or None, initial=initial)
        for name, param in params.items():
            form.fields[field_name(name)] = parameter_field(name, param)
        form.fields["proposal"].choices = [
            ("", "the current version only"),
            (CUSTOM, "the parameters below"),
            *(
                (str(p.pk), f"proposal by {p.proposed_by.email if p.proposed_by else '—'} ({p.created_at:%Y-%m-%d})")
                for p in pending
            ),
        ]
        result = None
        if request.method == "POST" and form.is_valid():
            choice = form.cleaned_data["proposal"] or ""
            chosen = {str(p.pk): p for p in pending}.get(choice)
            conditions = chosen.changes["conditions"] if chosen else None
            if choice == CUSTOM:
                conditions = {"ruleType": rule.rule_type}
                for name, param in params.items():
                    value = json_value(param, form.cleaned_data.get(field_name(name)))
                    if value is not None:
                        conditions[name] = value
            try:
                result = backtests.backtest(
                    rule=rule,
                    since=form.cleaned_data["since"],
                    until=form.cleaned_data["until"],
                    conditions=conditions,
                )
            except DomainError as exc:
                for key, texts in (exc.details or {}).items():
                    target = field_name(key.removeprefix("conditions."))
                    form.add_error(target if target in form.fields else None, texts)
                if not exc.details:
                    form.add_error(None, exc.message)
        names = {u["id"]: f"{u['firstName']} {u['lastName']}".strip() for u in (result.users if result else [])}

        def rows(hits):
            return [(names.get(str(h.user_id), str(h.user_id)), len(h.transaction_ids), h.details) for h in hits[:200]]

        context = {
            **self.admin_site.each_context(request),
            "title": f"Backtest {rule.rule_id}",
            "opts": self.opts,
            "rule": rule,
            "form": form,
            "result": result,
            "hit_rows": rows(result.hits) if result else [],
            "dropped_rows": rows(result.dropped) if result else [],
        }
        return TemplateResponse(request, "compliance/rule_backtest.html", context)

    def has_delete_permission(self, request, obj=None):
        # alerts point at rules and their versions; switch a rule off instead of deleting it
        return False


def _svg_chart(weeks: list[dict]) -> str:
    """Stacked weekly bars (false positive, SAR, open) as inline SVG; no script, no external file."""
    width, height, pad = 480, 120, 16
    most = max([w["fp"] + w["sar"] + w["open"] for w in weeks] + [1])
    bar = max(4, (width - 2 * pad) // max(len(weeks), 1) - 4)
    parts = []
    colours = (("fp", "#9ca3af"), ("sar", "#dc2626"), ("open", "#2563eb"))
    for i, week in enumerate(weeks):
        x = pad + i * (bar + 4)
        y = height - pad
        for key, colour in colours:
            h = round((height - 2 * pad) * week[key] / most)
            if h:
                y -= h
                parts.append(
                    format_html(
                        '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{} {}: {}</title></rect>',
                        x,
                        y,
                        bar,
                        h,
                        colour,
                        week["start"].strftime("%d %b"),
                        key,
                        week[key],
                    )
                )
    legend = format_html('<text x="{}" y="12" font-size="10">grey: false positive · red: SAR · blue: open</text>', pad)
    return format_html(
        '<svg role="img" aria-label="Alerts per week by outcome" data-testid="outcome-chart" width="{}" '
        'height="{}" viewBox="0 0 {} {}">{}{}</svg>',
        width,
        height,
        width,
        height,
        legend,
        format_html_join("", "{}", ((p,) for p in parts)),
    )
