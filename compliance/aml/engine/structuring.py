"""structuring: at least ``thresholdCount`` transactions, each below ``thresholdAmount``, adding up
to ``thresholdAmount`` or more within ``timeWindowHours`` (rolling). Default types: all but ADMIN_CREDIT."""

from compliance.aml.engine.base import Scope, db_money, money_json, tx_types, types_sql
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits

DEFAULT_TYPES = ["TOP_UP", "TRANSFER_IN", "TRANSFER_OUT", "VENDOR_PAYMENT", "WITHDRAWAL", "CARD_PAYMENT"]


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    types, type_params = types_sql(tx_types(rule, DEFAULT_TYPES))
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where=f"t.amount < %s AND {types}",
        params=[db_money(c["thresholdAmount"]), *type_params],
        having="n >= %s AND total >= %s",
        having_params=[int(c["thresholdCount"]), db_money(c["thresholdAmount"])],
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {
            "count": int(n),
            "total": money_json(total),
            "threshold_amount": money_json(c["thresholdAmount"]),
            "threshold_count": int(c["thresholdCount"]),
        },
    )
