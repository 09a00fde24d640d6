"""behavioral: a transaction of at least ``thresholdAmount`` by a user whose declared occupation
is one of ``occupations`` (compared case-insensitively, surrounding spaces ignored)."""

from django.db.models.functions import Lower, Trim

from compliance.aml.engine.base import Scope, money_json, tx_types
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped


def evaluate(rule, scope: Scope):
    c = rule.conditions
    occupations = sorted({o.strip().lower() for o in c["occupations"]})
    qs = at_least(scoped(scope), c["thresholdAmount"]).annotate(occ=Lower(Trim("user__occupation")))
    qs = qs.filter(occ__in=occupations)
    if types := tx_types(rule, None):
        qs = qs.filter(type__in=types)
    return per_transaction_hits(qs, threshold_amount=money_json(c["thresholdAmount"]), occupations=occupations)
