"""pep_related: a transaction of at least ``thresholdAmount`` by a user flagged as a potential PEP."""

from compliance.aml.engine.base import Scope, money_json, tx_types
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped


def evaluate(rule, scope: Scope):
    c = rule.conditions
    qs = at_least(scoped(scope), c["thresholdAmount"]).filter(user__is_potential_pep=True)
    if types := tx_types(rule, None):
        qs = qs.filter(type__in=types)
    return per_transaction_hits(qs, threshold_amount=money_json(c["thresholdAmount"]), potential_pep=True)
