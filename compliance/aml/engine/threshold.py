"""threshold: one transaction of at least ``thresholdAmount`` (all ledger types unless transactionTypes)."""

from compliance.aml.engine.base import Scope, money_json, tx_types
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped


def evaluate(rule, scope: Scope):
    c = rule.conditions
    qs = at_least(scoped(scope), c["thresholdAmount"])
    if types := tx_types(rule, None):
        qs = qs.filter(type__in=types)
    return per_transaction_hits(qs, threshold_amount=money_json(c["thresholdAmount"]))
