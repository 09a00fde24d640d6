"""The ledger in the admin site, read-only: rows are written by kyc.services.transaction_record only."""

from django.contrib import admin
from unfold.admin import ModelAdmin
from unfold.decorators import display

from backoffice.admin.base import EstimatedCountPaginator, ReadOnlyAdminMixin, StateHistoryInline
from backoffice.money import money
from backoffice.visibility import Facet, hidden, sees
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

    # what of a row's decision each facet covers (backoffice.visibility): support and finance see the status
    # and the decision (held, blocked), never the hits, the reviewer or the note (tipping-off)
    FACET_FIELDS = {
        Facet.RULE_HITS: ("hits_text", "screening_failed"),
        Facet.REVIEW: ("reviewed_by", "reviewed_at", "review_note"),
    }

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        withheld = hidden(request.user, self.FACET_FIELDS)
        return [name for name in fields if name not in withheld]

    def get_inlines(self, request, obj):
        # the decision history names the officer and carries their note
        return self.inlines if sees(request.user, Facet.REVIEW) else ()

    @admin.display(description="Rule hits at record time")
    def hits_text(self, obj):
        if not obj.hits:
            return "—"
        return "; ".join(hit_text(h) for h in obj.hits)

    @display(description="Amount", ordering="amount")
    def amount_money(self, obj):
        return money(obj.amount, obj.currency)

    @display(description="Balance after", ordering="balance_after")
    def balance_after_money(self, obj):
        return money(obj.balance_after, obj.currency)


def hit_text(hit: dict) -> str:
    """One hit in words: a rule with its version, or a screening (sanctions) with its list and reference."""
    version = hit.get("rule_version")
    source = f"{hit['rule_id']} v{version}" if version is not None else hit["rule_id"]
    listed = f" {hit.get('list', '')} {hit.get('reference', '')}".rstrip() if hit.get("reference") else ""
    return f"{source} ({hit['severity']}): {hit['action']}{listed}"
