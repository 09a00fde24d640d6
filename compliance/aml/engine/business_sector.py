"""business_sector (our design): payments to vendors whose business sector is one of ``sectors``
(case-insensitive) adding up to ``thresholdAmount`` or more within ``timeWindowHours`` (rolling).
Looks at VENDOR_PAYMENT and CARD_PAYMENT rows that name a vendor."""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import VENDORS, Scope, db_money, money_json, placeholders
from compliance.aml.engine.base import money as cents
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits
from compliance.aml.engine.words import Finding, listed, money, plural, window_of
from compliance.aml.models.parameters import AMOUNT, STRINGS, WINDOW


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


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return (
        tx.type in ("VENDOR_PAYMENT", "CARD_PAYMENT")
        and tx.counterparty_vendor_id is not None
        and bounds.text_rule(bounds.vendor_sector(tx) or "", rule.conditions["sectors"])
    )


def activity_plan(rule, sums: bounds.Sums):
    c = rule.conditions
    return bounds.rolling_plan(
        sums,
        seconds=bounds.window_seconds(c),
        types=["VENDOR_PAYMENT", "CARD_PAYMENT"],
        need_total=cents(c["thresholdAmount"]),
    )


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"{plural(d['payments'], 'payment')} to vendors in {listed(d.get('sectors') or c['sectors'])} added up to "
        f"{money(d['total'])} within {window_of(d, c)}.",
        f"Rule: {money(c['thresholdAmount'])} or more within {window_of({}, c)} to vendors in {listed(c['sectors'])}.",
    )


PARAMETERS = {"sectors": STRINGS, "thresholdAmount": AMOUNT, "timeWindowHours": WINDOW}

CATALOGUE = (
    shipped_rule(
        "AML-BUS-001",
        "business_sector",
        "Spending in cash-intensive sectors",
        "E20,000 or more within 7 days paid to vendors in cash-intensive or high-risk sectors.",
        "MEDIUM",
        50,
        "Business sector",
        thresholdAmount=20000,
        timeWindowHours=168,
        sectors=[
            "gambling",
            "money services",
            "precious metals",
            "used cars",
            "liquor",
            "pawn shop",
            "real estate",
        ],
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.BUSINESS_SECTOR, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan)
