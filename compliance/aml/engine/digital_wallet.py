"""digital_wallet: rapid top-up and transfer. A TOP_UP of ``minAmount`` or more of which at least
``topupPercentageTransferred`` % leaves the wallet within ``timeWindowMinutes`` after it. Outflows
are the debit types (transactionTypes narrows them). One hit per top-up."""

from decimal import Decimal

from backoffice.money import money_sum
from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import (
    DEBIT_TYPES,
    TX,
    Hit,
    Scope,
    as_uuid,
    db_money,
    epoch_sql,
    fetch,
    group_rows,
    money_json,
    placeholders,
    scope_sql,
    tx_types,
)
from compliance.aml.engine.base import money as cents
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.words import Finding, duration, money, number
from compliance.aml.models.parameters import AMOUNT, PERCENT100, WINDOW


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowMinutes"]) * 60)
    outs = tx_types(rule, DEBIT_TYPES)
    # top-ups up to one window before the scope can still be completed by outflows inside it
    top_where, top_params = scope_sql(scope, lookback_seconds=window)
    out_where, out_params = scope_sql(scope, lookback_seconds=window)
    ep = epoch_sql("t.created_at")
    # Joining on (user, window bucket) keeps the join a hash join: a heavy user's top-ups meet only the
    # outflows of the same or the next bucket, never all of that user's history.
    sql = f"""
        WITH tops AS (
            SELECT t.id, t.user_id, t.amount, {ep} AS ep, {ep} / {window} AS wb FROM {TX} t
            WHERE {top_where} AND t.type = %s AND t.amount >= %s
        ),
        outs AS (
            SELECT t.id, t.user_id, t.amount, {ep} AS ep, {ep} / {window} AS wb FROM {TX} t
            WHERE {out_where} AND t.type IN ({placeholders(outs)})
        ),
        near AS (
            SELECT tp.id AS top_id, tp.user_id, tp.amount AS top_amount, tp.ep AS top_ep, o.id AS out_id,
                   o.amount AS out_amount, o.ep AS out_ep
            FROM tops tp JOIN outs o ON o.user_id = tp.user_id AND o.wb = tp.wb
            UNION ALL
            SELECT tp.id, tp.user_id, tp.amount, tp.ep, o.id, o.amount, o.ep
            FROM tops tp JOIN outs o ON o.user_id = tp.user_id AND o.wb = tp.wb + 1
        ),
        pairs AS (
            SELECT top_id, user_id, top_amount, out_id, out_amount, out_ep FROM near
            WHERE out_ep >= top_ep AND out_ep <= top_ep + {window}
        ),
        hits AS (
            SELECT top_id FROM pairs GROUP BY top_id, top_amount
            HAVING {money_sum("SUM(out_amount)")} * 100 >= top_amount * %s
        )
        SELECT p.top_id, p.user_id, p.top_amount, p.out_id, p.out_amount FROM pairs p
        WHERE p.top_id IN (SELECT top_id FROM hits)
        ORDER BY p.top_id, p.out_ep, p.out_id
    """
    rows = fetch(
        sql,
        [*top_params, "TOP_UP", db_money(c["minAmount"]), *out_params, *outs, float(c["topupPercentageTransferred"])],
    )
    hits = []
    for (top_id,), group in group_rows(rows, 1).items():
        top_amount = group[0][2]
        moved = sum(float(r[4]) for r in group)
        hits.append(
            Hit(
                user_id=as_uuid(group[0][1]),
                key=f"topup:{as_uuid(top_id)}",
                transaction_ids=[as_uuid(top_id), *(as_uuid(r[3]) for r in group)],
                details={
                    "top_up_amount": money_json(top_amount),
                    "transferred_amount": money_json(moved),
                    "percentage_transferred": round(moved / float(top_amount) * 100, 1),
                    "window_minutes": window // 60,
                },
            )
        )
    return hits


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    """False only when ``tx`` cannot be in any hit: a top-up large enough, or one of the outflows that drain it."""
    return (tx.type == "TOP_UP" and bounds.at_least(tx, rule.conditions["minAmount"])) or tx.type in (
        rule.conditions.get("transactionTypes") or DEBIT_TYPES
    )


def activity_plan(rule, sums: bounds.Sums):
    """(earliest epoch read, check(row)) bounding the rule by the wallet's hourly activity; top-ups: none."""
    c = rule.conditions
    if sums.tx.type == "TOP_UP":
        return None
    # an outflow: it drains a large enough top-up of the last window, or nothing
    seconds = bounds.window_seconds(c)
    idx = sums.window(sums.t - seconds, sums.t, types=["TOP_UP"])
    floor = cents(c["minAmount"])
    return sums.t - seconds, lambda row: row[idx[2]] is not None and Decimal(row[idx[2]]) >= floor


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"A top-up of {money(d['top_up_amount'])}, of which {money(d['transferred_amount'])} "
        f"({number(d['percentage_transferred'])}%) left the wallet within {duration(int(d['window_minutes']) * 60)}.",
        f"Rule: a top-up of at least {money(c['minAmount'])} with {number(c['topupPercentageTransferred'])}% or "
        f"more leaving within {duration(float(c['timeWindowMinutes']) * 60)}.",
    )


PARAMETERS = {
    "minAmount": AMOUNT,
    "timeWindowMinutes": WINDOW,
    "topupPercentageTransferred": PERCENT100,
}

CATALOGUE = (
    shipped_rule(
        "AML-DW-001",
        "digital_wallet",
        "Rapid top-up and transfer",
        "A top-up of E5,000 or more of which 90% leaves the wallet within an hour (pass-through wallet).",
        "HIGH",
        25,
        "Digital wallet",
        minAmount=5000,
        timeWindowMinutes=60,
        topupPercentageTransferred=90,
    ),
    shipped_rule(
        "AML-DW-002",
        "digital_wallet",
        "Large top-up moved on within a day",
        "A top-up of E20,000 or more of which 80% leaves within 24 hours.",
        "MEDIUM",
        45,
        "Digital wallet",
        minAmount=20000,
        timeWindowMinutes=1440,
        topupPercentageTransferred=80,
    ),
    shipped_rule(
        "AML-DW-003",
        "digital_wallet",
        "Top-up cashed straight out",
        "A top-up of E1,000 or more of which 95% is withdrawn as cash within 30 minutes.",
        "MEDIUM",
        50,
        "Digital wallet",
        minAmount=1000,
        timeWindowMinutes=30,
        topupPercentageTransferred=95,
        transactionTypes=["WITHDRAWAL"],
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.DIGITAL_WALLET, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan)
