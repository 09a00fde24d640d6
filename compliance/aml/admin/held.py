"""The held-transaction queue: oldest first, the hits that held each one, the customer's context, and one
release or reject with a note (through kyc's ledger service, like the API)."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from unfold.admin import ModelAdmin
from unfold.decorators import display

from backoffice.admin.actions import Done, object_action
from backoffice.admin.base import EstimatedCountPaginator, object_urls
from backoffice.admin.dashboard import register_card
from backoffice.errors import ValidationFailed
from backoffice.selectors.approvals import approval_pending_for
from compliance.aml.models.held import HeldTransaction
from compliance.aml.selectors.triage import held_counts, held_transaction_page
from compliance.aml.services.held import held_alerts, held_overdue_since
from compliance.casework.deadlines import ageing
from kyc.choices import TransactionStatus
from kyc.services.ledger import HELD_RELEASE_KIND, HELD_TARGET, held_transaction_reject, held_transaction_release_ask

ACTION_COLOURS = {"BLOCK": "danger", "HOLD": "warning", "ALERT": "info"}
RECENT = 8


class EscalatedFilter(admin.SimpleListFilter):
    title = "waiting"
    parameter_name = "waiting"

    def lookups(self, request, model_admin):
        return [("overdue", "Past the escalation time")]

    def queryset(self, request, queryset):
        if self.value() == "overdue":
            return queryset.filter(created_at__lt=held_overdue_since())
        return queryset


@admin.register(HeldTransaction)
class HeldTransactionAdmin(ModelAdmin):
    """Compliance officers, MLROs and admins decide held transactions here; nobody edits a ledger row."""

    list_display = ("held_since", "age", "customer", "type", "amount_display", "rules", "external_id", "decide")
    list_display_links = None
    list_filter = (EscalatedFilter, "type", "channel")
    search_fields = ("reference", "external_id", "user__first_name", "user__last_name")
    list_select_related = ("user",)
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = 50
    ordering = ("created_at", "id")

    def get_queryset(self, request):
        return super().get_queryset(request).filter(status=TransactionStatus.HELD)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_decide_permission(self, request) -> bool:
        return request.user.has_perm("compliance.change_heldtransaction")

    # ------------------------------------------------------------ columns

    @display(description="Held since", ordering="created_at")
    def held_since(self, obj):
        return f"{obj.created_at:%Y-%m-%d %H:%M}"

    @display(description="Waiting")
    def age(self, obj):
        waited = ageing(timezone.now() - obj.created_at)
        if obj.created_at < held_overdue_since():
            return format_html('<strong class="vk-out" data-testid="overdue">{} (escalated)</strong>', waited)
        return waited

    @display(description="Customer", ordering="user__last_name")
    def customer(self, obj):
        url = reverse("admin:kyc_platformuser_change", args=[obj.user_id])
        return format_html('<a href="{}">{}</a>', url, obj.user.full_name)

    @display(description="Amount", ordering="amount")
    def amount_display(self, obj):
        return f"SZL {obj.amount:,.2f}"

    @display(description="Held by")
    def rules(self, obj):
        return format_html_join(
            " ",
            '<span class="vk-badge" title="{}">{}{} {}</span>',
            (
                (
                    h["severity"],
                    h["rule_id"],
                    f" v{h['rule_version']}" if h.get("rule_version") is not None else f" {h.get('list', '')}",
                    h["action"].lower(),
                )
                for h in obj.hits
            ),
        )

    @display(description="")
    def decide(self, obj):
        url = reverse("admin:compliance_heldtransaction_change", args=[obj.pk])
        return format_html('<a class="vk-button" href="{}">Review</a>', url)

    # ------------------------------------------------------------ the decision page

    def get_urls(self):
        return object_urls(self, {"decide": self.decide_view}, pk="path") + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not self.has_view_or_change_permission(request):
            if request.user.is_active:
                raise PermissionDenied
            return self.admin_site.login(request)
        page = held_transaction_page(object_id, recent=RECENT)
        tx = page["tx"]
        context = {
            **self.admin_site.each_context(request),
            "title": f"Held transaction {tx.reference}",
            "customer": tx.user,
            "hits": tx.hits,
            "alerts": held_alerts([tx.pk]),
            **page,
            "waited": ageing(timezone.now() - tx.created_at),
            "overdue": tx.status == TransactionStatus.HELD and tx.created_at < held_overdue_since(),
            "may_decide": tx.status == TransactionStatus.HELD and self.has_decide_permission(request),
            "decide_url": reverse("admin:compliance_heldtransaction_decide", args=[tx.pk]),
            # a release above HELD_RELEASE_FOUR_EYES_ABOVE already asked for (docs/dual-control.md)
            "release_waiting": approval_pending_for(kind=HELD_RELEASE_KIND, target_type=HELD_TARGET, target_id=tx.pk),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "compliance/held_transaction.html", context)

    def decide_view(self, request, object_id):
        """Release or reject from the page (POST only), with the note the API also requires."""
        op = request.POST.get("op", "")

        def decide(_):
            service = {"release": held_transaction_release_ask, "reject": held_transaction_reject}.get(op)
            if service is None:
                raise ValidationFailed("Choose release or reject.")
            outcome = service(transaction_id=object_id, actor=request.user, note=request.POST.get("note", ""))
            if op == "release" and outcome.waits:
                # above HELD_RELEASE_FOUR_EYES_ABOVE: a second person decides it from the approval queue
                return Done(
                    f"Release asked for: {outcome.request.summary}. It waits for a second person "
                    "(Approvals: waiting for my approval); the transaction stays held.",
                    reverse("admin:backoffice_approvalrequest_change", args=[outcome.request.pk]),
                )
            tx = outcome.result if op == "release" else outcome
            verb = "released: the money moved" if op == "release" else "rejected: no money moved"
            return Done(f"Transaction {tx.reference} {verb}.", reverse("admin:compliance_heldtransaction_changelist"))

        return object_action(
            self,
            request,
            object_id,
            decide,
            back=reverse("admin:compliance_heldtransaction_change", args=[object_id]),
            lookup=lambda: None,  # the ledger's service finds and locks the row itself
            allowed=self.has_decide_permission,
            refused="Your role may not decide held transactions.",
        )


@register_card
def _held_cards(request):
    if not request.user.has_perm("compliance.view_heldtransaction"):
        return []
    counts = held_counts(overdue_since=held_overdue_since())
    link = reverse("admin:compliance_heldtransaction_changelist")
    return [
        {
            "title": "Held transactions",
            "value": counts["held"],
            "hint": "Money stopped until someone decides",
            "link": link,
            "group": "my work",
            "tone": "warning" if counts["held"] else "",
        },
        {
            "title": "Held too long",
            "value": counts["overdue"],
            "hint": "Waiting past the escalation time; their alerts are escalated",
            "link": f"{link}?waiting=overdue",
            "group": "my work",
            "tone": "danger" if counts["overdue"] else "",
        },
    ]
