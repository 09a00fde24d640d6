"""cft_related (our design): transactions made in one of ``countries`` (ISO 3166-1 alpha-2) adding up
to ``thresholdAmount`` or more within ``timeWindowHours`` (rolling); a threshold of 0 flags any one."""

from compliance.aml.engine.base import Scope, db_money, money_json, placeholders, tx_types, types_sql
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    countries = list(c["countries"])
    types, type_params = types_sql(tx_types(rule, None))
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where=f"t.country IN ({placeholders(countries)}) AND {types}",
        params=[*countries, *type_params],
        having="total >= %s",
        having_params=[db_money(c["thresholdAmount"])],
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {"count": int(n), "total": money_json(total), "countries": countries},
    )
