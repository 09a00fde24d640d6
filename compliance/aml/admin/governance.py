"""Rule change proposals (decided here by a second person) and per-user snoozes, in the admin site."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from unfold.admin import ModelAdmin

from backoffice.admin.base import ServiceErrorsAdminMixin
from backoffice.admin.dashboard import register_card
from backoffice.errors import DomainError
from compliance.aml.models.governance import RuleProposal, RuleSnooze
from compliance.aml.selectors import rules as selectors
from compliance.aml.services import governance


def _show(value) -> str:
    if value is None:
        return "—"
    return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)


class DiffChangeList(ChangeList):
    """Attaches each listed proposal's differences (one query for the page)."""

    def get_results(self, request):
        super().get_results(request)
        diffs = selectors.proposal_diffs(self.result_list)
        for proposal in self.result_list:
            proposal.diff = diffs[proposal.pk]


class RejectForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label="Why the change is rejected")


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
        return "; ".join(f"{what}: {_show(was)} → {_show(now)}" for what, was, now in diff)

    @admin.display(description="Changes, parameter by parameter")
    def change_table(self, obj):
        rows = [(what, _show(was), _show(now)) for what, was, now in selectors.proposal_diff(obj)]
        return format_html(
            '<table class="vk-table" data-testid="proposal-diff"><thead><tr><th>What</th><th>Now</th>'
            "<th>Proposed</th></tr></thead><tbody>{}</tbody></table>",
            format_html_join("", "<tr><td><code>{}</code></td><td>{}</td><td><strong>{}</strong></td></tr>", rows),
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

    @admin.action(description="Approve the selected changes", permissions=["decide"])
    def approve_selected(self, request, queryset):
        for proposal in queryset.select_related("rule"):
            try:
                governance.proposal_approve(proposal=proposal, actor=request.user)
            except DomainError as exc:
                self.message_user(request, f"{proposal.rule.rule_id}: {exc.message}", messages.ERROR)
                continue
            self.message_user(request, f"{proposal.rule.rule_id}: change approved and in force.", messages.SUCCESS)

    @admin.action(description="Reject the selected changes…", permissions=["decide"])
    def reject_selected(self, request, queryset):
        proposals = list(queryset.select_related("rule", "proposed_by"))
        form = RejectForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            for proposal in proposals:
                try:
                    governance.proposal_reject(proposal=proposal, actor=request.user, reason=reason)
                except DomainError as exc:
                    self.message_user(request, f"{proposal.rule.rule_id}: {exc.message}", messages.ERROR)
                    continue
                self.message_user(request, f"{proposal.rule.rule_id}: change rejected.", messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Reject rule changes",
            "opts": self.opts,
            "proposals": proposals,
            "form": form,
            "action": "reject_selected",
        }
        return TemplateResponse(request, "compliance/proposal_reject.html", context)


class SnoozeForm(forms.ModelForm):
    """The customer is named by phone number or id (a select of every customer would not load)."""

    customer = forms.CharField(label="Customer", help_text="Phone number (+268…) or the customer's id")

    class Meta:
        model = RuleSnooze
        fields = ("rule", "expires_at", "reason")

    def clean_customer(self):
        import uuid

        from kyc.models import PlatformUser

        ref = self.cleaned_data["customer"].strip()
        user = PlatformUser.objects.filter(phone_number=ref).first()
        if user is None:
            try:
                user = PlatformUser.objects.filter(pk=uuid.UUID(ref)).first()
            except ValueError:
                user = None
        if user is None:
            raise forms.ValidationError("No customer with this phone number or id.")
        self.instance.user = user
        return ref

    def clean_expires_at(self):
        from django.utils import timezone

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
        created = governance.rule_snooze(
            rule=obj.rule, user=obj.user, actor=request.user, expires_at=obj.expires_at, reason=obj.reason
        )
        obj.pk = created.pk
        obj._state.adding = False

    @admin.action(description="End the selected snoozes now", permissions=["change"])
    def end_selected(self, request, queryset):
        for snooze in queryset:
            try:
                governance.rule_snooze_end(snooze=snooze, actor=request.user)
            except DomainError as exc:
                self.message_user(request, f"{snooze}: {exc.message}", messages.ERROR)

    def has_delete_permission(self, request, obj=None):
        return False


@register_card
def _proposal_cards(request):
    """My work: rule changes a colleague proposed that I may decide (four eyes)."""
    has = getattr(request.user, "has_capability", None)
    if not (has and has("rules.approve")):
        return []
    waiting = RuleProposal.objects.filter(status="PENDING").exclude(proposed_by=request.user).count()
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
