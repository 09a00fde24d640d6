"""pattern_detection: at least ``minCount`` (default 3) transactions of ``minAmount`` or more within
``timeWindowMinutes`` whose amounts are alike: smallest / largest >= ``similarityPercentage`` %."""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, db_money, money_json, tx_types, types_sql
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits
from compliance.aml.engine.words import Finding, money, number, plural, types_of, window_of
from compliance.aml.models.parameters import AMOUNT, COUNT, PERCENT100, WINDOW, optional


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


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return bounds.at_least(tx, rule.conditions["minAmount"]) and bounds.types_ok(rule, tx)


def activity_plan(rule, sums: bounds.Sums):
    c = rule.conditions
    return bounds.rolling_plan(
        sums,
        seconds=bounds.window_seconds(c),
        types=c.get("transactionTypes") or None,
        need_count=int(c.get("minCount", 3)),
    )


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"{plural(d['count'], 'transaction')} of similar amounts ({money(d['smallest'])} to {money(d['largest'])}, "
        f"{money(d['total'])} in all) within {window_of(d, c)}.",
        f"Rule: at least {c.get('minCount', 3)} transactions{types_of(c)} of {money(c['minAmount'])} or more within "
        f"{window_of({}, c)}, the smallest at least {number(c['similarityPercentage'])}% of the largest.",
    )


PARAMETERS = {
    "minAmount": AMOUNT,
    "timeWindowMinutes": WINDOW,
    "similarityPercentage": PERCENT100,
    "minCount": optional(COUNT),
}

CATALOGUE = (
    shipped_rule(
        "AML-PAT-001",
        "pattern_detection",
        "Repeated similar transfers out",
        "Three or more transfers out of E1,000 or more within 30 minutes whose amounts differ by at most 10%.",
        "MEDIUM",
        45,
        "Patterns",
        minAmount=1000,
        timeWindowMinutes=30,
        similarityPercentage=90,
        transactionTypes=["TRANSFER_OUT"],
    ),
    shipped_rule(
        "AML-PAT-002",
        "pattern_detection",
        "Repeated similar top-ups",
        "Three or more top-ups of E2,000 or more within an hour with amounts within 5% of each other.",
        "MEDIUM",
        45,
        "Patterns",
        minAmount=2000,
        timeWindowMinutes=60,
        similarityPercentage=95,
        transactionTypes=["TOP_UP"],
    ),
    shipped_rule(
        "AML-PAT-003",
        "pattern_detection",
        "Identical vendor payments in a burst",
        "Four or more identical payments of E500 or more to vendors within 15 minutes (card testing, fake sales).",
        "LOW",
        75,
        "Patterns",
        minAmount=500,
        timeWindowMinutes=15,
        similarityPercentage=100,
        minCount=4,
        transactionTypes=["VENDOR_PAYMENT", "CARD_PAYMENT"],
    ),
    shipped_rule(
        "AML-PAT-004",
        "pattern_detection",
        "Repeated similar cash-outs",
        "Three or more withdrawals of E3,000 or more within two hours, amounts within 10%.",
        "MEDIUM",
        45,
        "Patterns",
        minAmount=3000,
        timeWindowMinutes=120,
        similarityPercentage=90,
        transactionTypes=["WITHDRAWAL"],
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.PATTERN_DETECTION, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan)
