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
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from unfold.admin import ModelAdmin
from unfold.widgets import (
    CHECKBOX_CLASSES,
    INPUT_CLASSES,
    LABEL_CLASSES,
    SELECT_CLASSES,
    TEXTAREA_CLASSES,
    UnfoldAdminCheckboxSelectMultipleWidget,
)

from backoffice.admin.actions import each_object
from backoffice.admin.base import ServiceErrorsAdminMixin, object_urls
from backoffice.errors import DomainError
from compliance.aml import charts
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
from compliance.aml.models.parameters import LABELS, Label, format_value, parameters_of
from compliance.aml.models.rules import AMLRule
from compliance.aml.selectors import outcomes as outcome_selectors
from compliance.aml.selectors import rules as selectors
from compliance.aml.services import governance
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
            ("Actions", {"fields": ["on_hit", "create_alert", "notify_compliance"]}),
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
            values = {name: getattr(obj, name) for name in AMLRule.UPDATABLE}
            outcome = governance.rule_change_to(rule_pk=obj.pk, actor=request.user, values=values, reason=reason)
            request._rule_proposal = outcome.proposal
            obj.refresh_from_db()
            return
        outcome = governance.rule_create_governed(
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
        # under four eyes a rule asked for active is created off, and switching it on is proposed
        request._rule_proposal = outcome.proposal
        obj.pk = outcome.rule.pk
        obj.is_active = outcome.rule.is_active
        obj._state.adding = False

    def response_add(self, request, obj, post_url_continue=None):
        if getattr(request, "_rule_proposal", None) is not None:
            self.message_user(
                request,
                f"Rule {obj.rule_id} created switched off: switching it on is proposed, and takes effect when "
                "another MLRO or admin approves it.",
                messages.WARNING,
            )
            return HttpResponseRedirect(reverse("admin:compliance_amlrule_change", args=[obj.pk]))
        return super().response_add(request, obj, post_url_continue)

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
        return render_to_string("compliance/rule_fields/parameters.html", {"rows": rows})

    @admin.display(description="Waiting for approval")
    @_once
    def pending_proposals(self, obj):
        pending = [p for p in selectors.rule_proposals(obj) if p.status == "PENDING"]
        diffs = selectors.proposal_diffs(pending) if pending else {}
        rows = [{"proposal": p, "changes": selectors.diff_summary(diffs[p.pk])} for p in pending]
        return render_to_string("compliance/rule_fields/proposals.html", {"rows": rows})

    @admin.display(description="Version history (parameter by parameter)")
    @_once
    def version_history(self, obj):
        rows = [
            {
                "version": entry["version"],
                "changes": selectors.diff_in_words(entry["changes"]),  # labels and values in words, not codes
            }
            for entry in selectors.rule_history(obj)
        ]
        return render_to_string("compliance/rule_fields/versions.html", {"rows": rows})

    @admin.display(description="Alerts per week (last 90 days)")
    @_once
    def outcome_chart(self, obj):
        since = timezone.now() - dt.timedelta(days=90)
        weeks = outcome_selectors.rule_outcome_weeks(obj, since=since)
        outcome = outcome_selectors.rule_outcomes([obj], since=since)[obj.pk]
        return format_html(
            "{}<p>{} hits; false positives {}; SARs {}; open {}; median time to close {}.{}</p>",
            charts.outcome_weeks_chart(weeks),
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
            "selected": rules,
            "form": form,
            "action": "toggle_selected",
        }
        return TemplateResponse(request, "compliance/rule_toggle_confirm.html", context)

    def _toggle(self, request, rules, reason):
        def toggle(rule):
            return governance.rule_toggle_or_propose(rule=rule, actor=request.user, reason=reason)

        done = each_object(self, request, rules, toggle, label=lambda rule: rule.rule_id)
        proposed = [rule.rule_id for rule, outcome in done if outcome.proposed]
        on = [rule.rule_id for rule, outcome in done if not outcome.proposed and outcome.rule.is_active]
        off = [rule.rule_id for rule, outcome in done if not outcome.proposed and not outcome.rule.is_active]
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
        form = _backtest_form(request, rule, pending)
        result = _run_backtest(rule, form, pending) if request.method == "POST" and form.is_valid() else None
        context = {
            **self.admin_site.each_context(request),
            "title": f"Backtest {rule.rule_id}: {rule.name}",
            "opts": self.opts,
            "rule": rule,
            "form": form,
            "label_classes": " ".join(LABEL_CLASSES),
            "common_fields": [form[name] for name in ("since", "until", "proposal")],
            "parameter_fields": [form[name] for name in parameter_field_names(rule.rule_type)],
            "chosen": _chosen_proposal(form, pending),
            "result": result,
        }
        if result is not None:
            added = {hit.key for hit in result.added}
            current = [hit for hit in result.hits if hit.key not in added] + result.dropped
            context.update(
                hit_rows=_hit_rows(result, result.hits),
                dropped_rows=_hit_rows(result, result.dropped),
                volumes=selectors.backtest_volumes(
                    current=current,
                    candidate=result.hits,
                    since=form.cleaned_data["since"],
                    until=form.cleaned_data["until"],
                ),
                current_count=len(current),
            )
        return TemplateResponse(request, "compliance/rule_backtest.html", context)

    def has_delete_permission(self, request, obj=None):
        # alerts point at rules and their versions; switch a rule off instead of deleting it
        return False


def _unfold_styled(form: forms.Form) -> forms.Form:
    """The form's inputs drawn as the rest of the admin site draws them (Unfold's classes)."""
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.CheckboxSelectMultiple):
            field.widget = UnfoldAdminCheckboxSelectMultipleWidget(choices=field.choices)  # Unfold's own layout
            continue
        if isinstance(widget, forms.CheckboxInput):
            classes = CHECKBOX_CLASSES
        elif isinstance(widget, forms.Select):
            classes = SELECT_CLASSES
        elif isinstance(widget, forms.Textarea):
            classes = TEXTAREA_CLASSES
        else:
            classes = INPUT_CLASSES
        widget.attrs["class"] = " ".join(classes)
    return form


def _proposal_choice(request, pending) -> str:
    wanted = (request.POST if request.method == "POST" else request.GET).get("proposal", "")
    return wanted if wanted in {str(p.pk) for p in pending} | {CUSTOM} else ""


def _parameter_data(rule, conditions: dict) -> dict:
    """The parameter inputs' values (as a browser would post them) of ``conditions``."""
    data: dict = {}
    for name, param in parameters_of(rule.rule_type).items():
        value = initial_value(param, conditions.get(name))
        data[field_name(name)] = value
    return data


def _backtest_form(request, rule, pending) -> BacktestForm:
    """The window (the last 30 days to start with), the parameters to try, and what they come from.

    A chosen proposal fills the parameter inputs with its values, on the first view (``?proposal=``, the
    proposal page's link) and after a run: the page shows what was tried, never the current values under a
    proposal's name.
    """
    now = timezone.now().replace(second=0, microsecond=0)
    params = parameters_of(rule.rule_type)
    choice = _proposal_choice(request, pending)
    chosen = {str(p.pk): p for p in pending}.get(choice)
    conditions = {**rule.conditions, **chosen.changes["conditions"]} if chosen else rule.conditions
    initial = {"since": now - dt.timedelta(days=30), "until": now, "proposal": choice}
    initial.update(_parameter_data(rule, conditions))
    data = None
    if request.method == "POST":
        data = request.POST.copy()
        if chosen:
            for name, value in _parameter_data(rule, conditions).items():
                data.setlist(name, value if isinstance(value, list) else [] if value is None else [str(value)])
    form = BacktestForm(data, initial=initial)
    for name, param in params.items():
        form.fields[field_name(name)] = parameter_field(name, param)
    form.fields["proposal"].choices = [
        ("", "the current version only"),
        (CUSTOM, "the parameters below"),
        *((str(p.pk), _proposal_label(p)) for p in pending),
    ]
    return _unfold_styled(form)


def _proposal_label(proposal) -> str:
    who = proposal.proposed_by.full_name or proposal.proposed_by.email if proposal.proposed_by else "—"
    changes = selectors.diff_summary(selectors.proposal_diff(proposal))
    return f"the change proposed by {who} on {proposal.created_at:%Y-%m-%d}: {changes}"


def _chosen_proposal(form, pending):
    choice = form["proposal"].value() or ""
    return {str(p.pk): p for p in pending}.get(str(choice))


def _backtest_conditions(rule, form, pending) -> dict | None:
    """The conditions to try: the parameters typed in, a pending proposal's, or None for the current version."""
    choice = form.cleaned_data["proposal"] or ""
    if choice == CUSTOM:
        conditions = {"ruleType": rule.rule_type}
        for name, param in parameters_of(rule.rule_type).items():
            value = json_value(param, form.cleaned_data.get(field_name(name)))
            if value is not None:
                conditions[name] = value
        return conditions
    chosen = {str(p.pk): p for p in pending}.get(choice)
    return chosen.changes["conditions"] if chosen else None


def _run_backtest(rule, form, pending):
    """The backtest's result; a refusal goes onto the form (on the parameter it names) and gives None."""
    try:
        return backtests.backtest(
            rule=rule,
            since=form.cleaned_data["since"],
            until=form.cleaned_data["until"],
            conditions=_backtest_conditions(rule, form, pending),
        )
    except DomainError as exc:
        for key, texts in (exc.details or {}).items():
            target = field_name(key.removeprefix("conditions."))
            form.add_error(target if target in form.fields else None, texts)
        if not exc.details:
            form.add_error(None, exc.said)
        return None


def _hit_rows(result, hits) -> list[dict]:
    """The first 200 hits: the customer (name and page), the number of transactions, the details in words."""
    names = {u["id"]: f"{u['firstName']} {u['lastName']}".strip() for u in result.users}
    return [
        {
            "name": names.get(str(h.user_id)) or "a customer",
            "url": reverse("admin:kyc_platformuser_change", args=[h.user_id]),
            "transactions": len(h.transaction_ids),
            "details": selectors.details_in_words(h.details),
        }
        for h in hits[:200]
    ]
