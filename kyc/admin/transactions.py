"""The ledger in the admin site, read-only: rows are written by kyc.services.transaction_record only."""

from django.contrib import admin
from unfold.admin import ModelAdmin
from unfold.decorators import display

from backoffice.admin.base import EstimatedCountPaginator, ReadOnlyAdminMixin, StateHistoryInline
from backoffice.money import money
from kyc.models import Transaction, TransactionEvent


class TransactionEventInline(StateHistoryInline):
    model = TransactionEvent
    verbose_name = "decision"
    verbose_name_plural = "History (the decision on a held row)"


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdminMixin, ModelAdmin):
    """The ledger, read-only: rows are written by kyc.services.transaction_record only."""

    inlines = (TransactionEventInline,)
    list_display = (
        "created_at",
        "reference",
        "user",
        "type",
        "amount_money",
        "status",
        "decision",
        "channel",
        "balance_after_money",
        "actor",
    )
    list_filter = ("type", "status", "decision", "channel")
    search_fields = ("reference", "external_id")
    list_select_related = ("user", "actor")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = 50
    readonly_fields = (
        "reference",
        "user",
        "type",
        "amount_money",
        "status",
        "channel",
        "reason",
        "description",
        "actor",
        "counterparty_user",
        "counterparty_vendor",
        "country",
        "region",
        "balance_after_money",
        "created_at",
        "external_id",
        "counterparty_name",
        "decision",
        "hits_text",
        "decision_balance",
        "took_ms",
        "screening_failed",
        "reviewed_by",
        "reviewed_at",
        "review_note",
    )
    fields = readonly_fields

    @admin.display(description="Rule hits at record time")
    def hits_text(self, obj):
        if not obj.hits:
            return "—"
        return "; ".join(f"{h['rule_id']} v{h['rule_version']} ({h['severity']}): {h['action']}" for h in obj.hits)

    @display(description="Amount", ordering="amount")
    def amount_money(self, obj):
        return money(obj.amount, obj.currency)

    @display(description="Balance after", ordering="balance_after")
    def balance_after_money(self, obj):
        return money(obj.balance_after, obj.currency)
