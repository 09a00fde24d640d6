"""mobile_money (our design): at least ``minCount`` mobile-money transactions (channel MOBILE_MONEY)
adding up to ``minTotalAmount`` or more within ``timeWindowHours`` (rolling). transactionTypes
narrows the direction (e.g. TOP_UP for cash-ins, WITHDRAWAL for cash-outs); default all."""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, db_money, money_json, tx_types, types_sql
from compliance.aml.engine.base import money as cents
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits
from compliance.aml.engine.words import Finding, money, plural, types_of, window_of
from compliance.aml.models.parameters import AMOUNT, COUNT, WINDOW


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


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return tx.channel == "MOBILE_MONEY" and bounds.types_ok(rule, tx)


def activity_plan(rule, sums: bounds.Sums):
    c = rule.conditions
    return bounds.rolling_plan(
        sums,
        seconds=bounds.window_seconds(c),
        types=c.get("transactionTypes") or None,
        channel="MOBILE_MONEY",
        need_count=int(c["minCount"]),
        need_total=cents(c["minTotalAmount"]),
    )


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"{plural(d['count'], 'mobile-money transaction')} added up to {money(d['total'])} within {window_of(d, c)}.",
        f"Rule: at least {c['minCount']} mobile-money transactions{types_of(c)} and {money(c['minTotalAmount'])} "
        f"within {window_of({}, c)}.",
    )


PARAMETERS = {"minCount": COUNT, "minTotalAmount": AMOUNT, "timeWindowHours": WINDOW}

CATALOGUE = (
    shipped_rule(
        "AML-MM-001",
        "mobile_money",
        "Many mobile-money cash-ins",
        "Ten or more mobile-money top-ups within 24 hours, E10,000 or more in total (agent smurfing).",
        "MEDIUM",
        45,
        "Mobile money",
        minCount=10,
        minTotalAmount=10000,
        timeWindowHours=24,
        transactionTypes=["TOP_UP"],
    ),
    shipped_rule(
        "AML-MM-002",
        "mobile_money",
        "Many mobile-money cash-outs",
        "Five or more mobile-money withdrawals within 24 hours, E15,000 or more in total.",
        "HIGH",
        30,
        "Mobile money",
        minCount=5,
        minTotalAmount=15000,
        timeWindowHours=24,
        transactionTypes=["WITHDRAWAL"],
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.MOBILE_MONEY, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan)
