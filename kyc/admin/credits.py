"""Maker-checker in the admin site: credits waiting for a second finance or admin person, approved or rejected here.

Every decision calls the same services as the API (``kyc.services.credit``),
so the four-eyes rule, the single credit and the audit entries are the same
whichever way a credit is decided.
"""

from django import forms
from django.contrib import admin, messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from unfold.admin import ModelAdmin
from unfold.decorators import action, display

from backoffice.admin.actions import each_object
from backoffice.admin.base import DefaultChoiceFilter, EstimatedCountPaginator, StateHistoryInline
from backoffice.admin.dashboard import register_card
from backoffice.money import money
from kyc import services
from kyc.choices import CreditStatus
from kyc.models import CreditRequest, CreditRequestEvent
from kyc.selectors.credits import credit_request_get, credits_awaiting

STATUS_COLOURS = {
    CreditStatus.PENDING: "warning",
    CreditStatus.APPROVED: "success",
    CreditStatus.CREDITED: "info",
    CreditStatus.REJECTED: "danger",
}


def may_decide_credits(request) -> bool:
    return request.user.is_authenticated and request.user.has_capability("users.credit")


class CreditQueueFilter(DefaultChoiceFilter):
    """The approval queue by default; decided and immediate credits on request."""

    title = "status"
    parameter_name = "state"
    default = "pending"

    def lookups(self, request, model_admin):
        others = [(value.lower(), label) for value, label in CreditStatus.choices if value != CreditStatus.PENDING]
        return [("pending", "Awaiting approval"), *others, ("all", "All credits")]

    def queryset(self, request, queryset):
        value = self.current()
        if value == "all":
            return queryset
        return queryset.filter(status=value.upper())


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=255, required=False, widget=forms.TextInput(attrs={"size": 60}))


class CreditRequestEventInline(StateHistoryInline):
    model = CreditRequestEvent
    verbose_name = "step"
    verbose_name_plural = "History"


@admin.register(CreditRequest)
class CreditRequestAdmin(ModelAdmin):
    """Credits as requests: the queue a checker works from, and one request with its history."""

    list_display = (
        "created_at",
        "wallet",
        "amount_display",
        "requested_by",
        "status_badge",
        "decided_by",
        "decided_at",
    )
    list_filter = (CreditQueueFilter,)
    list_select_related = ("user", "requested_by", "decided_by")
    search_fields = ("user__first_name", "user__last_name", "user__phone_number", "reference")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ("-created_at", "-id")
    inlines = [CreditRequestEventInline]
    actions = ["approve_selected", "reject_selected"]
    actions_detail = ["approve_one", "reject_one"]
    fields = (
        "wallet",
        "amount_display",
        "reason",
        "status_badge",
        "requested_by",
        "created_at",
        "decided_by",
        "decided_at",
        "decision_reason",
        "previous_balance_money",
        "new_balance_money",
        "transaction",
    )
    readonly_fields = fields

    def has_view_permission(self, request, obj=None):
        return may_decide_credits(request)

    def has_module_permission(self, request):
        return may_decide_credits(request)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_decide_permission(self, request, obj=None):
        return may_decide_credits(request)

    @display(description="Wallet", ordering="user__last_name")
    def wallet(self, obj):
        return f"{obj.user.full_name} ({obj.user.phone_number})"

    @display(description="Amount", ordering="amount")
    def amount_display(self, obj):
        return money(obj.amount)

    @display(description="Balance before")
    def previous_balance_money(self, obj):
        return money(obj.previous_balance)

    @display(description="Balance after")
    def new_balance_money(self, obj):
        return money(obj.new_balance)

    @display(
        description="Status", ordering="status", label={CreditStatus(k).label: v for k, v in STATUS_COLOURS.items()}
    )
    def status_badge(self, obj):
        return obj.get_status_display()

    # ------------------------------------------------------------ decisions

    def _decide(self, request, credits, *, approve: bool, reason: str) -> int:
        """Approve or reject each credit; a refusal is that credit's error message. Returns how many were decided."""
        service = services.credit_request_approve if approve else services.credit_request_reject
        done = each_object(
            self,
            request,
            credits,
            lambda credit: service(credit_request=credit, actor=request.user, reason=reason),
            label=lambda credit: f"{credit.user.full_name}, {money(credit.amount)}",
        )
        return len(done)

    @admin.action(description="Approve selected credits", permissions=["decide"])
    def approve_selected(self, request, queryset):
        done = self._decide(request, queryset.select_related("user"), approve=True, reason="")
        if done:
            self.message_user(request, f"{done} credit(s) approved and paid into the wallets.", messages.SUCCESS)

    @admin.action(description="Reject selected credits (asks for a reason)", permissions=["decide"])
    def reject_selected(self, request, queryset):
        credits = list(queryset.select_related("user"))
        form = ReasonForm(request.POST if "confirm_reject" in request.POST else None)
        if "confirm_reject" in request.POST and form.is_valid() and form.cleaned_data["reason"].strip():
            reason = form.cleaned_data["reason"]
            done = self._decide(request, credits, approve=False, reason=reason)
            if done:
                self.message_user(request, f"{done} credit(s) rejected.", messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Reject {len(credits)} credit(s)?",
            "credits": credits,
            "form": form,
            "needs_reason": "confirm_reject" in request.POST,
            "action": "reject_selected",
        }
        return TemplateResponse(request, "kyc/admin/credit_reject.html", context)

    def _back(self, object_id):
        return redirect(reverse("admin:kyc_creditrequest_change", args=[object_id]))

    @action(description="Approve and credit", url_path="approve", permissions=["decide"], icon="check_circle")
    def approve_one(self, request, object_id):
        credit = credit_request_get(request_id=object_id)
        return self._decision_page(request, credit, approve=True)

    @action(description="Reject", url_path="reject", permissions=["decide"], icon="block")
    def reject_one(self, request, object_id):
        credit = credit_request_get(request_id=object_id)
        return self._decision_page(request, credit, approve=False)

    def _decision_page(self, request, credit, *, approve: bool):
        form = ReasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            reason = form.cleaned_data["reason"]
            if not approve and not reason.strip():
                form.add_error("reason", "A reason is required to reject a credit.")
            elif self._decide(request, [credit], approve=approve, reason=reason):
                verb = "approved: the wallet is credited" if approve else "rejected"
                self.message_user(request, f"Credit of {money(credit.amount)} {verb}.", messages.SUCCESS)
                return self._back(credit.pk)
            else:
                return self._back(credit.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": credit,
            "approve": approve,
            "form": form,
            "title": f"{'Approve' if approve else 'Reject'} {money(credit.amount)} for {credit.user.full_name}?",
        }
        return TemplateResponse(request, "kyc/admin/credit_decision.html", context)


@register_card
def _credit_cards(request):
    if not may_decide_credits(request):
        return []
    waiting = credits_awaiting(request.user)
    return [
        {
            "title": "Credits awaiting my approval",
            "value": waiting,
            "hint": "Asked for by a colleague",
            "link": reverse("admin:kyc_creditrequest_changelist"),
            "group": "my work",
            "tone": "warning" if waiting else "",
        }
    ]
