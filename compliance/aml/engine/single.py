"""Rules decided by one transaction alone: one ORM query over the scope, one hit per transaction."""

from django.db.models import QuerySet

from compliance.aml.engine.base import COMPLETED, Hit, Scope, money, money_json
from kyc.models import Transaction


def scoped(scope: Scope) -> QuerySet:
    qs = Transaction.objects.filter(status=COMPLETED, created_at__gte=scope.since, created_at__lte=scope.until)
    if scope.user_id is not None:
        qs = qs.filter(user_id=scope.user_id)
    return qs


def per_transaction_hits(qs: QuerySet, **details) -> list[Hit]:
    rows = qs.order_by().values_list("id", "user_id", "amount", "type")
    return [
        Hit(
            user_id=user_id,
            transaction_ids=[tx_id],
            key=f"tx:{tx_id}",
            details={"amount": money_json(amount), "transaction_type": tx_type, **details},
        )
        for tx_id, user_id, amount, tx_type in rows
    ]


def at_least(qs: QuerySet, amount) -> QuerySet:
    return qs.filter(amount__gte=money(amount))
