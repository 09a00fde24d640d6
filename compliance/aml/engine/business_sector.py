"""business_sector (our design): payments to vendors whose business sector is one of ``sectors``
(case-insensitive) adding up to ``thresholdAmount`` or more within ``timeWindowHours`` (rolling).
Looks at VENDOR_PAYMENT and CARD_PAYMENT rows that name a vendor."""

from compliance.aml.engine.base import VENDORS, Scope, db_money, money_json, placeholders
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    sectors = sorted({s.strip().lower() for s in c["sectors"]})
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where=f"t.type IN (%s, %s) AND LOWER(TRIM(v.business_sector)) IN ({placeholders(sectors)})",
        params=["VENDOR_PAYMENT", "CARD_PAYMENT", *sectors],
        joins=f"JOIN {VENDORS} v ON v.id = t.counterparty_vendor_id",
        having="total >= %s",
        having_params=[db_money(c["thresholdAmount"])],
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {"payments": int(n), "total": money_json(total), "sectors": sectors},
    )
