"""regional_risk: a transaction made in one of ``regions`` (the ledger row's region, compared
case-insensitively), of at least the optional ``thresholdAmount`` (default 0)."""

from django.db.models.functions import Lower, Trim

from compliance.aml.engine.base import Scope, money_json, tx_types
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped


def evaluate(rule, scope: Scope):
    c = rule.conditions
    regions = sorted({r.strip().lower() for r in c["regions"]})
    threshold = c.get("thresholdAmount", 0)
    qs = at_least(scoped(scope), threshold).annotate(reg=Lower(Trim("region"))).filter(reg__in=regions)
    if types := tx_types(rule, None):
        qs = qs.filter(type__in=types)
    return per_transaction_hits(qs, regions=regions, threshold_amount=money_json(threshold))
