"""Rule change proposals (decided here by a second person) and per-user snoozes, in the admin site."""

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

from backoffice.admin.actions import Done, each_object, object_action
from backoffice.admin.base import ServiceErrorsAdminMixin, object_urls
from backoffice.admin.dashboard import register_card
from backoffice.errors import ValidationFailed
from compliance.aml.choices import ProposalStatus
from compliance.aml.models.governance import RuleProposal, RuleSnooze
from compliance.aml.selectors import rules as selectors
from compliance.aml.selectors.triage import proposals_awaiting
from compliance.aml.services import governance


def _rule_id(proposal) -> str:
    return proposal.rule.rule_id


class DiffChangeList(ChangeList):
    """Attaches each listed proposal's differences (one query for the page)."""

    def get_results(self, request):
        super().get_results(request)
        diffs = selectors.proposal_diffs(self.result_list)
        for proposal in self.result_list:
            proposal.diff = diffs[proposal.pk]


class DecisionForm(forms.Form):
    """The reason a decision on the selected proposals asks first; each subclass is one decision."""

    action: str
    title: str
    submit_label: str
    done: str

    @staticmethod
    def decide(proposal, actor, reason: str):
        raise NotImplementedError


class RejectForm(DecisionForm):
    action, title, submit_label, done = "reject_selected", "Reject rule changes", "Reject", "change rejected"
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label="Why the change is rejected")

    @staticmethod
    def decide(proposal, actor, reason: str):
        return governance.proposal_reject(proposal=proposal, actor=actor, reason=reason)


class ApproveForm(DecisionForm):
    action, title, submit_label = "approve_selected", "Approve rule changes", "Approve"
    done = "change approved and in force"
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), label="Why the change is approved (the backtest, the case behind it)"
    )

    @staticmethod
    def decide(proposal, actor, reason: str):
        return governance.proposal_approve(proposal=proposal, actor=actor, note=reason)


@admin.register(RuleProposal)
class RuleProposalAdmin(ModelAdmin):
    """Proposed rule changes; an MLRO or admin who did not propose one approves or rejects it."""

    list_display = ("rule", "status", "proposed_by", "created_at", "change_summary", "reason")
    list_filter = ("status",)
    list_select_related = ("rule", "proposed_by")
    search_fields = ("rule__rule_id", "rule__name", "reason")
    ordering = ("-created_at",)
    fields = (
        "rule",
        "status",
        "base_version",
        "change_table",
        "reason",
        "proposed_by",
        "created_at",
        "decided_by",
        "decided_at",
        "decision_reason",
        "resulting_version",
    )
    readonly_fields = fields
    actions = ["approve_selected", "reject_selected"]

    def get_changelist(self, request, **kwargs):
        return DiffChangeList

    @admin.display(description="Changes")
    def change_summary(self, obj):
        diff = getattr(obj, "diff", None)
        if diff is None:
            diff = selectors.proposal_diff(obj)
        return selectors.diff_summary(diff)

    @admin.display(description="Changes, parameter by parameter")
    def change_table(self, obj):
        rows = selectors.diff_in_words(selectors.proposal_diff(obj))
        if not rows:
            return "No change: every value is the rule's already (a list in another order is the same list)."
        return format_html(
            '<table class="vk-table" data-testid="proposal-diff"><thead><tr><th scope="col">What</th>'
            '<th scope="col">Now</th><th scope="col">Proposed</th></tr></thead><tbody>{}</tbody></table>',
            format_html_join("", "<tr><td>{}</td><td>{}</td><td><strong>{}</strong></td></tr>", rows),
        )

    # ---------------------------------------------------------------- the proposal's own page, with its decision

    def get_urls(self):
        return object_urls(self, {"decide": self.decide_view}) + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        get_object_or_404(RuleProposal, pk=object_id)
        proposal, events = selectors.proposal_page(object_id)
        pending = proposal.status == ProposalStatus.PENDING
        own = proposal.proposed_by_id == request.user.pk
        backtest = reverse("admin:compliance_amlrule_backtest", args=[proposal.rule_id])
        context = {
            **self.admin_site.each_context(request),
            "title": str(proposal),
            "opts": self.opts,
            "proposal": proposal,
            "rule": proposal.rule,
            "rows": self.change_table(proposal),
            "events": events,
            "stale": pending and proposal.rule.version != proposal.base_version,
            "own": own,
            "may_decide": pending and not own and self.has_decide_permission(request),
            "decide_url": reverse("admin:compliance_ruleproposal_decide", args=[proposal.pk]),
            "backtest_url": f"{backtest}?proposal={proposal.pk}" if "conditions" in proposal.changes else "",
        }
        return TemplateResponse(request, "compliance/rule_proposal.html", context)

    def decide_view(self, request, object_id):
        """Approve or reject from the proposal's page (POST only), with the reason either needs."""
        op = request.POST.get("op", "")
        reason = (request.POST.get("reason") or "").strip()
        back = reverse("admin:compliance_ruleproposal_change", args=[object_id])

        def decide(proposal):
            if not reason:
                raise ValidationFailed("Say why you approve or reject the change.")
            if op == "approve":
                governance.proposal_approve(proposal=proposal, actor=request.user, note=reason)
                return Done(f"{proposal.rule.rule_id}: change approved and in force.", back)
            if op == "reject":
                governance.proposal_reject(proposal=proposal, actor=request.user, reason=reason)
                return Done(f"{proposal.rule.rule_id}: change rejected; the rule stays as it is.", back)
            raise ValidationFailed("Choose approve or reject.")

        return object_action(
            self,
            request,
            object_id,
            decide,
            back=back,
            allowed=self.has_decide_permission,
            refused="Only an MLRO or an admin may decide a rule change.",
        )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_decide_permission(self, request):
        has = getattr(request.user, "has_capability", None)
        return bool(has and has("rules.approve"))

    @admin.action(description="Approve the selected changes…", permissions=["decide"])
    def approve_selected(self, request, queryset):
        """Asks the approval's reason first, as the proposal's own page does (issue 31: a reason on approval)."""
        return self._decide_selected(request, queryset, ApproveForm)

    @admin.action(description="Reject the selected changes…", permissions=["decide"])
    def reject_selected(self, request, queryset):
        return self._decide_selected(request, queryset, RejectForm)

    def _decide_selected(self, request, queryset, form_class: type[DecisionForm]):
        """The selected proposals and a form asking the decision's reason; once it is given, each is decided."""
        proposals = list(queryset.select_related("rule", "proposed_by"))
        form = form_class(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            each_object(
                self,
                request,
                proposals,
                lambda proposal: form_class.decide(proposal, request.user, reason),
                label=_rule_id,
                done=lambda proposal, _: f"{proposal.rule.rule_id}: {form_class.done}.",
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": form_class.title,
            "opts": self.opts,
            "selected": proposals,
            "form": form,
            "action": form_class.action,
            "submit_label": form_class.submit_label,
        }
        return TemplateResponse(request, "compliance/proposal_decide.html", context)


class SnoozeForm(forms.ModelForm):
    """The customer is named by phone number or id (a select of every customer would not load)."""

    customer = forms.CharField(label="Customer", help_text="Phone number (+268…) or the customer's id")

    class Meta:
        model = RuleSnooze
        fields = ("rule", "expires_at", "reason")

    def clean_customer(self):
        ref = self.cleaned_data["customer"].strip()
        user = selectors.snooze_customer(ref)
        if user is None:
            raise forms.ValidationError("No customer with this phone number or id.")
        self.instance.user = user
        return ref

    def clean_expires_at(self):
        expires_at = self.cleaned_data["expires_at"]
        if expires_at <= timezone.now():
            raise forms.ValidationError("Must be in the future.")
        return expires_at


@admin.register(RuleSnooze)
class RuleSnoozeAdmin(ServiceErrorsAdminMixin, ModelAdmin):
    """A rule switched off for one customer until a date, with the reason; ending one early is audited."""

    form = SnoozeForm
    list_display = ("rule", "user", "expires_at", "in_force_display", "created_by", "reason")
    list_select_related = ("rule", "user", "created_by")
    list_filter = ("rule",)
    ordering = ("-created_at",)
    actions = ["end_selected"]

    @admin.display(description="In force", boolean=True)
    def in_force_display(self, obj):
        return obj.in_force

    def get_readonly_fields(self, request, obj=None):
        return ("rule", "user", "expires_at", "reason", "ended_at", "created_by", "created_at") if obj else ()

    def has_change_permission(self, request, obj=None):
        # a snooze is never edited: it is ended early by the list's action (which needs "change" on the list), or a
        # new one is made. Its page offered a Save that always failed: the form's customer field, shown only when adding
        return obj is None and super().has_change_permission(request, obj)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("rule", "customer", "expires_at", "reason")
        return self.get_readonly_fields(request, obj)

    def save_model(self, request, obj, form, change):
        if change:
            return
        outcome = governance.rule_snooze_ask(
            rule=obj.rule, user=obj.user, actor=request.user, expires_at=obj.expires_at, reason=obj.reason
        )
        if outcome.waits:
            # a HIGH or CRITICAL rule under four eyes: no snooze yet, a request for a second person
            request._snooze_approval = outcome.request
            return
        obj.pk = outcome.result.pk
        obj._state.adding = False

    def log_addition(self, request, obj, message):
        if getattr(request, "_snooze_approval", None) is None:
            return super().log_addition(request, obj, message)
        return None  # nothing was added yet: the approval request is audited on its own

    def response_add(self, request, obj, post_url_continue=None):
        approval = getattr(request, "_snooze_approval", None)
        if approval is None:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(
            request,
            f"Snooze asked for: {approval.summary}. It waits for another MLRO or admin (Approvals: waiting for my "
            "approval); the rule keeps running for this customer until then.",
            messages.WARNING,
        )
        return HttpResponseRedirect(reverse("admin:backoffice_approvalrequest_change", args=[approval.pk]))

    @admin.action(description="End the selected snoozes now", permissions=["change"])
    def end_selected(self, request, queryset):
        each_object(
            self, request, queryset, lambda snooze: governance.rule_snooze_end(snooze=snooze, actor=request.user)
        )

    def has_delete_permission(self, request, obj=None):
        return False


@register_card
def _proposal_cards(request):
    """My work: rule changes a colleague proposed that I may decide (four eyes)."""
    has = getattr(request.user, "has_capability", None)
    if not (has and has("rules.approve")):
        return []
    waiting = proposals_awaiting(request.user)
    return [
        {
            "title": "Rule changes awaiting my approval",
            "value": waiting,
            "hint": "Proposed by a colleague",
            "link": reverse("admin:compliance_ruleproposal_changelist") + "?status__exact=PENDING",
            "group": "my work",
            "tone": "warning" if waiting else "",
        }
    ]
