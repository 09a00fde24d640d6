"""network_analysis: one wallet receives transfers from at least ``minSenders`` different wallets,
``minTotalAmount`` or more in total, within ``timeWindowHours`` (rolling). Looks at TRANSFER_IN rows."""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, db_money, money_json
from compliance.aml.engine.base import money as cents
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import rolling_hits, rolling_to_hits
from compliance.aml.engine.words import Finding, money, plural, window_of
from compliance.aml.models.parameters import AMOUNT, COUNT, WINDOW


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    rows = rolling_hits(
        scope,
        window_seconds=window,
        where="t.type = %s AND t.counterparty_user_id IS NOT NULL",
        params=["TRANSFER_IN"],
        having="n >= %s AND total >= %s",
        having_params=[int(c["minSenders"]), db_money(c["minTotalAmount"])],
        counterparty="t.counterparty_user_id",
        min_distinct_counterparties=int(c["minSenders"]),
    )
    return rolling_to_hits(
        rows,
        window_seconds=window,
        describe=lambda n, total, lo, hi: {
            "transfers": int(n),
            "total": money_json(total),
            "min_senders": int(c["minSenders"]),
            "min_total_amount": money_json(c["minTotalAmount"]),
        },
    )


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return tx.type == "TRANSFER_IN" and tx.counterparty_user_id is not None


def activity_plan(rule, sums: bounds.Sums):
    c = rule.conditions
    return bounds.rolling_plan(
        sums,
        seconds=bounds.window_seconds(c),
        types=["TRANSFER_IN"],
        need_count=int(c["minSenders"]),
        need_total=cents(c["minTotalAmount"]),
    )


def finding(d, c, ctx) -> Finding:
    senders = ctx.get("senders") or d.get("senders")
    who = plural(senders, "sender") if senders else plural(d["transfers"], "transfer")
    return Finding(
        f"{who} sent {money(d['total'])} within {window_of(d, c)}"
        + (f" in {plural(d['transfers'], 'transfer')}." if senders else "."),
        f"Rule: at least {c['minSenders']} senders and {money(c['minTotalAmount'])} within {window_of({}, c)}.",
    )


PARAMETERS = {"minSenders": COUNT, "minTotalAmount": AMOUNT, "timeWindowHours": WINDOW}

CATALOGUE = (
    shipped_rule(
        "AML-NET-001",
        "network_analysis",
        "Many senders to one wallet",
        "Five or more different wallets send money to one wallet within 72 hours, E30,000 or more in total "
        "(collection or mule account).",
        "HIGH",
        25,
        "Network",
        minSenders=5,
        minTotalAmount=30000,
        timeWindowHours=72,
    ),
    shipped_rule(
        "AML-NET-002",
        "network_analysis",
        "Fan-in of small transfers",
        "Ten or more different senders within 24 hours, E5,000 or more in total.",
        "MEDIUM",
        45,
        "Network",
        minSenders=10,
        minTotalAmount=5000,
        timeWindowHours=24,
    ),
    shipped_rule(
        "AML-NET-003",
        "network_analysis",
        "Monthly collection wallet",
        "Twenty or more different senders within 30 days, E50,000 or more in total.",
        "MEDIUM",
        55,
        "Network",
        minSenders=20,
        minTotalAmount=50000,
        timeWindowHours=720,
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.NETWORK_ANALYSIS, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan)
