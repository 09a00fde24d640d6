"""pattern_detection: at least ``minCount`` (default 3) transactions of ``minAmount`` or more within
``timeWindowMinutes`` whose amounts are alike: smallest / largest >= ``similarityPercentage`` %."""

from compliance.aml.engine.base import Scope, db_money, money_json, tx_types, types_sql
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowMinutes"]) * 60)
    min_count = int(c.get("minCount", 3))
    types, type_params = types_sql(tx_types(rule, None))
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where=f"t.amount >= %s AND {types}",
        params=[db_money(c["minAmount"]), *type_params],
        having="n >= %s AND lo * 100 >= hi * %s",
        having_params=[min_count, float(c["similarityPercentage"])],
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {
            "count": int(n),
            "total": money_json(total),
            "smallest": money_json(lo),
            "largest": money_json(hi),
            "similarity_percentage": c["similarityPercentage"],
        },
    )
