"""network_analysis: one wallet receives transfers from at least ``minSenders`` different wallets,
``minTotalAmount`` or more in total, within ``timeWindowHours`` (rolling). Looks at TRANSFER_IN rows."""

from compliance.aml.engine.base import Scope, db_money, money_json
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where="t.type = %s AND t.counterparty_user_id IS NOT NULL",
        params=["TRANSFER_IN"],
        having="n >= %s AND total >= %s",
        having_params=[int(c["minSenders"]), db_money(c["minTotalAmount"])],
        counterparty="t.counterparty_user_id",
        min_distinct_counterparties=int(c["minSenders"]),
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {
            "transfers": int(n),
            "total": money_json(total),
            "min_senders": int(c["minSenders"]),
            "min_total_amount": money_json(c["minTotalAmount"]),
        },
    )
