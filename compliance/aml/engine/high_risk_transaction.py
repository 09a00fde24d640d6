"""high_risk_transaction (our design): one transaction of a risky kind.

Parameters: thresholdAmount (number), transactionTypes (string[], required:
the risky ledger types), channels (string[], optional: only these channels),
foreignOnly (boolean, optional: only transactions made outside Eswatini).
"""

from compliance.aml.engine.base import Scope, money_json
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped


def evaluate(rule, scope: Scope):
    c = rule.conditions
    qs = at_least(scoped(scope), c["thresholdAmount"]).filter(type__in=c["transactionTypes"])
    if c.get("channels"):
        qs = qs.filter(channel__in=c["channels"])
    if c.get("foreignOnly"):
        qs = qs.exclude(country="SZ")
    return per_transaction_hits(qs, threshold_amount=money_json(c["thresholdAmount"]))
