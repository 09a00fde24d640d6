"""mobile_money (our design): at least ``minCount`` mobile-money transactions (channel MOBILE_MONEY)
adding up to ``minTotalAmount`` or more within ``timeWindowHours`` (rolling). transactionTypes
narrows the direction (e.g. TOP_UP for cash-ins, WITHDRAWAL for cash-outs); default all."""

from compliance.aml.engine.base import Scope, db_money, money_json, tx_types, types_sql
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    types, type_params = types_sql(tx_types(rule, None))
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where=f"t.channel = %s AND {types}",
        params=["MOBILE_MONEY", *type_params],
        having="n >= %s AND total >= %s",
        having_params=[int(c["minCount"]), db_money(c["minTotalAmount"])],
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {"count": int(n), "total": money_json(total), "channel": "MOBILE_MONEY"},
    )
