"""vendor_specific (our design): payments from one user to one vendor adding up to ``thresholdAmount``
or more, in at least ``minCount`` (default 1) payments, within ``timeWindowHours`` (rolling), to a
vendor whose KYC status is one of ``vendorStatuses`` (optional; default any). Looks at VENDOR_PAYMENT."""

from compliance.aml.engine.base import VENDORS, Scope, db_money, money_json, placeholders
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    where, params = "t.type = %s AND t.counterparty_vendor_id IS NOT NULL", ["VENDOR_PAYMENT"]
    if statuses := c.get("vendorStatuses"):
        where += f" AND v.kyc_status IN ({placeholders(statuses)})"
        params += list(statuses)
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where=where,
        params=params,
        joins=f"JOIN {VENDORS} v ON v.id = t.counterparty_vendor_id",
        partition="t.counterparty_vendor_id",
        having="n >= %s AND total >= %s",
        having_params=[int(c.get("minCount", 1)), db_money(c["thresholdAmount"])],
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {
            "payments": int(n),
            "total": money_json(total),
            "threshold_amount": money_json(c["thresholdAmount"]),
        },
    )
