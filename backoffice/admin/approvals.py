"""Dual control in the admin site: one queue "Waiting for my approval" across every kind of sensitive action
(docs/dual-control.md), the change of each request shown in words, approved or rejected with a reason.

The queue lists only what the signed-in person may decide, never what they asked for themselves; every decision
calls ``backoffice.services.approvals`` (the same checks as any other way in: a forged post for someone else's
kind is refused by the service, not only hidden here).
"""

from django import forms
from django.contrib import admin
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from unfold.admin import ModelAdmin
from unfold.decorators import action, display

from backoffice.admin.actions import Done, object_action
from backoffice.admin.base import DefaultChoiceFilter, EstimatedCountPaginator, ReadOnlyAdminMixin
from backoffice.admin.dashboard import register_card
from backoffice.choices import ApprovalStatus
from backoffice.dual_control import kinds_decidable_by, policy
from backoffice.errors import DomainError, NotFound
from backoffice.models import ApprovalRequest
from backoffice.selectors.approvals import (
    approval_get,
    approval_view,
    approvals_visible_to,
    approvals_waiting_for,
)
from backoffice.services import approvals as services

STATUS_COLOURS = {
    ApprovalStatus.PENDING: "warning",
    ApprovalStatus.APPROVED: "info",
    ApprovalStatus.APPLIED: "success",
    ApprovalStatus.REJECTED: "danger",
    ApprovalStatus.EXPIRED: "info",
}


def may_use_queue(request) -> bool:
    """Anyone who may decide some kind, or who has asked for something (to follow their own requests)."""
    user = request.user
    if not user.is_authenticated:
        return False
    return bool(kinds_decidable_by(user)) or ApprovalRequest.objects.filter(requested_by=user).exists()


class QueueFilter(DefaultChoiceFilter):
    """Waiting for me by default; what I asked for, and every request I may see, on request."""

    title = "queue"
    parameter_name = "queue"
    default = "mine"

    def lookups(self, request, model_admin):
        return [("mine", "Waiting for my approval"), ("asked", "Asked for by me"), ("all", "All I may see")]

    def queryset(self, request, queryset):
        value = self.current()
        if value == "mine":
            return queryset.filter(pk__in=approvals_waiting_for(request.user).values("pk"))
        if value == "asked":
            return queryset.filter(requested_by=request.user)
        return queryset


class DecisionForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Written to the audit log with your name.",
    )


@admin.register(ApprovalRequest)
class ApprovalRequestAdmin(ReadOnlyAdminMixin, ModelAdmin):
    """The approval queue and one request: who asked, why, the change in words, and the decision."""

    list_display = ("created_at", "kind_label", "summary", "requested_by", "status_badge", "expires_at")
    list_filter = (QueueFilter,)
    list_select_related = ("requested_by", "decided_by")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ("created_at", "id")
    actions_detail = ["approve_one", "reject_one"]
    fields = (
        "kind_label",
        "summary",
        "change",
        "context_lines",
        "reason",
        "requested_by",
        "created_at",
        "expires_at",
        "status_badge",
        "decided_by",
        "decided_at",
        "decision_reason",
        "applied_at",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        # every read of the queue first lapses what is past its time (the periodic task does the same)
        services.approvals_expire()
        return approvals_visible_to(request.user)

    def has_module_permission(self, request):
        return may_use_queue(request)

    def has_view_permission(self, request, obj=None):
        return may_use_queue(request)

    def has_decide_permission(self, request, obj=None):
        return request.user.is_authenticated and bool(kinds_decidable_by(request.user))

    def get_actions_detail(self, request, object_id):
        # the buttons only where this person may decide now: not on a decided, lapsed or own request (the action's
        # page says why to anyone who reaches it by its address, and the service refuses the post)
        actions = super().get_actions_detail(request, object_id)
        if not actions or not object_id:
            return actions
        try:
            request_obj = approval_get(actor=request.user, approval_id=object_id)
        except NotFound:
            return actions
        if _refusal(request_obj, request.user) is None:
            return actions
        decisions = {f"{self.opts.app_label}_{self.opts.model_name}_{name}" for name in ("approve_one", "reject_one")}
        return [action for action in actions if action.action_name not in decisions]

    @display(description="Kind", ordering="kind")
    def kind_label(self, obj):
        return policy(obj.kind).label

    @display(description="Status", ordering="status", label={s.label: c for s, c in STATUS_COLOURS.items()})
    def status_badge(self, obj):
        return obj.get_status_display()

    @display(description="The change")
    def change(self, obj):
        return format_html(
            '<ul class="vk-history" data-testid="approval-change">{}</ul>',
            format_html_join("", "<li>{}</li>", ((line,) for line in approval_view(obj).changes)),
        )

    @display(description="To weigh")
    def context_lines(self, obj):
        lines = approval_view(obj).context
        if not lines:
            return "-"
        return format_html(
            '<ul class="vk-history" data-testid="approval-context">{}</ul>',
            format_html_join("", "<li>{}</li>", ((line,) for line in lines)),
        )

    # ------------------------------------------------------------ decisions

    @action(description="Approve", url_path="approve", permissions=["decide"], icon="check_circle")
    def approve_one(self, request, object_id):
        return self._decision(request, object_id, approve=True)

    @action(description="Reject", url_path="reject", permissions=["decide"], icon="block")
    def reject_one(self, request, object_id):
        return self._decision(request, object_id, approve=False)

    def _decision(self, request, object_id, *, approve: bool):
        back = reverse("admin:backoffice_approvalrequest_change", args=[object_id])
        try:
            request_obj = approval_get(actor=request.user, approval_id=object_id)
        except NotFound:
            raise Http404("Approval request not found") from None
        form = DecisionForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            reason = form.cleaned_data["reason"]

            def decide(obj):
                if approve:
                    done = services.approval_approve(request=obj, actor=request.user, reason=reason)
                    announce = policy(obj.kind).announce
                    told = f" {announce(done.result)}" if announce is not None else ""
                    return Done(f"Approved and applied: {obj.summary}.{told}", url=back)
                services.approval_reject(request=obj, actor=request.user, reason=reason)
                return Done(f"Rejected: {obj.summary}.", url=back)

            return object_action(self, request, object_id, decide, back=back, lookup=lambda: request_obj)
        view = approval_view(request_obj)
        refusal = None
        if request.method == "GET":
            refusal = _refusal(request_obj, request.user)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": request_obj,
            "view": view,
            "approve": approve,
            "form": form,
            "refusal": refusal,
            "title": f"{'Approve' if approve else 'Reject'}: {request_obj.summary}?",
        }
        return TemplateResponse(request, "admin/backoffice/approval_decision.html", context)


def _refusal(request_obj: ApprovalRequest, actor) -> str | None:
    """Why ``actor`` could not decide this request now (shown before they type a reason), or None."""
    if request_obj.status != ApprovalStatus.PENDING or request_obj.is_due:
        return "This request is no longer waiting for a decision."
    if request_obj.requested_by_id == actor.pk:
        return "You asked for this yourself: a second person must decide it."
    if not policy(request_obj.kind).may_approve(actor):
        return "Your role does not decide this kind of request."
    return None


@register_card
def _approval_cards(request):
    if not (request.user.is_authenticated and kinds_decidable_by(request.user)):
        return []
    try:
        waiting = approvals_waiting_for(request.user).count()
    except DomainError:  # pragma: no cover - a read never raises one; the dashboard must not fail on a card
        return []
    return [
        {
            "title": "Waiting for my approval",
            "value": waiting,
            "hint": "Sensitive actions a colleague asked for",
            "link": reverse("admin:backoffice_approvalrequest_changelist"),
            "group": "my work",
            "tone": "warning" if waiting else "",
        }
    ]
