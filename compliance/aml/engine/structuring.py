"""structuring: at least ``thresholdCount`` transactions, each below ``thresholdAmount``, adding up
to ``thresholdAmount`` or more within ``timeWindowHours`` (rolling). Default types: all but ADMIN_CREDIT."""

from decimal import Decimal

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, db_money, money_json, tx_types, types_sql
from compliance.aml.engine.base import money as cents
from compliance.aml.engine.catalogue import CASH_IN, CASH_OUT, shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits
from compliance.aml.engine.words import Finding, money, plural, types_of, window_of
from compliance.aml.models.parameters import AMOUNT, COUNT, WINDOW

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


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return Decimal(tx.amount) < cents(rule.conditions["thresholdAmount"]) and bounds.types_ok(rule, tx, DEFAULT_TYPES)


def activity_plan(rule, sums: bounds.Sums):
    c = rule.conditions
    return bounds.rolling_plan(
        sums,
        seconds=bounds.window_seconds(c),
        types=c.get("transactionTypes") or DEFAULT_TYPES,
        need_count=int(c["thresholdCount"]),
        need_total=cents(c["thresholdAmount"]),
    )


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"{plural(d['count'], 'transaction')}, each below {money(c['thresholdAmount'])}, "
        f"added up to {money(d['total'])} within {window_of(d, c)}.",
        f"Rule: at least {c['thresholdCount']} transactions{types_of(c)}, each below {money(c['thresholdAmount'])}, "
        f"totalling {money(c['thresholdAmount'])} or more within {window_of({}, c)}.",
    )


PARAMETERS = {"thresholdAmount": AMOUNT, "thresholdCount": COUNT, "timeWindowHours": WINDOW}

CATALOGUE = (
    shipped_rule(
        "AML-STR-001",
        "structuring",
        "Deposits split below the reporting threshold",
        "Three or more top-ups or incoming transfers, each under E25,000, adding up to E25,000 or more "
        "within 24 hours: the classic way to stay under the FIU's large-cash report.",
        "HIGH",
        15,
        "Structuring",
        thresholdAmount=25000,
        thresholdCount=3,
        timeWindowHours=24,
        transactionTypes=CASH_IN,
    ),
    shipped_rule(
        "AML-STR-002",
        "structuring",
        "Cash-outs split over a week",
        "Five or more withdrawals or outgoing transfers, each under E25,000, adding up to E25,000 or more "
        "within 7 days.",
        "MEDIUM",
        30,
        "Structuring",
        thresholdAmount=25000,
        thresholdCount=5,
        timeWindowHours=168,
        transactionTypes=CASH_OUT,
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.STRUCTURING, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan)
