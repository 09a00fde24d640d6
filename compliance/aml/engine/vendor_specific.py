"""vendor_specific (our design): payments from one user to one vendor adding up to ``thresholdAmount``
or more, in at least ``minCount`` (default 1) payments, within ``timeWindowHours`` (rolling), to a
vendor whose KYC status is one of ``vendorStatuses`` (optional; default any). Looks at VENDOR_PAYMENT."""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import VENDORS, Scope, db_money, money_json, placeholders
from compliance.aml.engine.base import money as cents
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits
from compliance.aml.engine.words import Finding, listed, money, plural, window_of
from compliance.aml.models.parameters import AMOUNT, COUNT, WINDOW, Param, optional
from vendors.choices import VendorKycStatus


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


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    """False only when ``tx`` cannot be in any hit: every row of the hit is a payment to the row's own vendor,
    whose KYC status the rule may name."""
    return (
        tx.type == "VENDOR_PAYMENT"
        and tx.counterparty_vendor_id is not None
        and (
            not rule.conditions.get("vendorStatuses")
            or tx.counterparty_vendor.kyc_status in rule.conditions["vendorStatuses"]
        )
    )


def activity_plan(rule, sums: bounds.Sums):
    c = rule.conditions
    return bounds.rolling_plan(
        sums,
        seconds=bounds.window_seconds(c),
        types=["VENDOR_PAYMENT"],
        need_count=int(c.get("minCount", 1)),
        need_total=cents(c["thresholdAmount"]),
    )


def finding(d, c, ctx) -> Finding:
    vendor = f" ({ctx['vendor']})" if ctx.get("vendor") else ""
    statuses = (
        f" whose KYC status is {listed(s.replace('_', ' ').lower() for s in c['vendorStatuses'])}"
        if c.get("vendorStatuses")
        else ""
    )
    return Finding(
        f"{plural(d['payments'], 'payment')} to one vendor{vendor} added up to {money(d['total'])} within "
        f"{window_of(d, c)}.",
        f"Rule: {money(c['thresholdAmount'])} or more in at least {plural(c.get('minCount', 1), 'payment')} to "
        f"one vendor{statuses} within {window_of({}, c)}.",
    )


PARAMETERS = {
    "thresholdAmount": AMOUNT,
    "timeWindowHours": WINDOW,
    "minCount": optional(COUNT),
    "vendorStatuses": Param.choosing(VendorKycStatus, required=False),
}

CATALOGUE = (
    shipped_rule(
        "AML-VEN-001",
        "vendor_specific",
        "Payments to an unverified vendor",
        "E5,000 or more paid within 24 hours to a vendor whose KYC is not verified (or was rejected).",
        "HIGH",
        30,
        "Vendors",
        thresholdAmount=5000,
        timeWindowHours=24,
        vendorStatuses=["PENDING", "DOCUMENTS_SUBMITTED", "UNDER_REVIEW", "REJECTED"],
    ),
    shipped_rule(
        "AML-VEN-002",
        "vendor_specific",
        "Concentrated spending at one vendor",
        "E50,000 or more paid to one vendor within 7 days (collusive merchant, fake sales).",
        "MEDIUM",
        45,
        "Vendors",
        thresholdAmount=50000,
        timeWindowHours=168,
    ),
    shipped_rule(
        "AML-VEN-003",
        "vendor_specific",
        "Split payments to one vendor",
        "Ten or more payments to one vendor within 24 hours, E10,000 or more in total.",
        "MEDIUM",
        50,
        "Vendors",
        thresholdAmount=10000,
        timeWindowHours=24,
        minCount=10,
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.VENDOR_SPECIFIC, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan)
