"""account_lifecycle: a transaction of ``thresholdAmount`` or more after ``inactiveDays`` or more
without any completed transaction (an account that never transacted counts as inactive since it
was opened). The gap is measured on all types; the triggering row's types follow transactionTypes."""

import datetime as dt

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import (
    COMPLETED,
    TX,
    USERS,
    Hit,
    Scope,
    as_uuid,
    db_money,
    db_time,
    epoch_sql,
    fetch,
    money_json,
    scope_sql,
    timestamp_sql,
    tx_types,
    uuid_param,
)
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.words import Finding, money, number
from compliance.aml.models.parameters import AMOUNT, WINDOW

DAY = 86400


def evaluate(rule, scope: Scope):
    c = rule.conditions
    gap = int(float(c["inactiveDays"]) * DAY)
    scope_where, scope_params = scope_sql(scope, lookback_seconds=gap)
    types = tx_types(rule, None)
    type_filter, type_params = "", []
    if types:
        type_filter = f"AND l.type IN ({', '.join(['%s'] * len(types))})"
        type_params = list(types)
    ep = epoch_sql("t.created_at")
    if scope.anchor_id is None:
        lagged, lagged_params = (
            f"""
        WITH base AS (
            SELECT t.id, t.user_id, t.amount, t.type, {ep} AS ep
            FROM {TX} t WHERE {scope_where}
        ),
        lagged AS (
            SELECT id, user_id, amount, type, ep, LAG(ep) OVER (PARTITION BY user_id ORDER BY ep, id) AS prev_ep
            FROM base
        )""",
            scope_params,
        )
    else:
        lagged, lagged_params = _anchored(scope, gap)
    sql = f"""{lagged}
        SELECT l.id, l.user_id, l.amount, l.ep, l.prev_ep, {epoch_sql("u.created_at")} AS opened
        FROM lagged l JOIN {USERS} u ON u.id = l.user_id
        WHERE l.ep >= %s AND l.amount >= %s {type_filter}
          AND ((l.prev_ep IS NULL AND {epoch_sql("u.created_at")} <= l.ep - {gap})
               OR (l.prev_ep IS NOT NULL AND l.ep - l.prev_ep >= {gap}))
    """
    rows = fetch(sql, [*lagged_params, scope.since_epoch, db_money(c["thresholdAmount"]), *type_params])
    return [
        Hit(
            user_id=as_uuid(user_id),
            transaction_ids=[as_uuid(tx_id)],
            key=f"tx:{as_uuid(tx_id)}",
            details={
                "amount": money_json(amount),
                "inactive_days": round(((ep - (prev_ep if prev_ep is not None else opened)) / DAY), 1),
                "last_activity_epoch": prev_ep,
                "threshold_amount": money_json(c["thresholdAmount"]),
            },
        )
        for tx_id, user_id, amount, ep, prev_ep, opened in rows
    ]


def _anchored(scope: Scope, gap: int) -> tuple[str, list]:
    """``lagged`` at record time, for the row being decided: its previous row found by two indexed look-ups.

    The window query orders all of the wallet's rows of the last ``inactiveDays`` (a year of a busy wallet)
    to read one LAG. The row before the decided one, in the same (second, id) order, is a row of the same
    second with a smaller id if there is one, else the latest row of an earlier second in the look-back:
    an EXISTS and a MAX on the (user, created_at) index, whatever the wallet's history.
    """
    row_where, row_params = scope_sql(scope)
    ep = epoch_sql("t.created_at")
    second = timestamp_sql("a.ep")
    sql = f"""
        WITH a AS (
            SELECT t.id, t.user_id, t.amount, t.type, {ep} AS ep FROM {TX} t WHERE t.id = %s AND {row_where}
        ),
        lagged AS (
            SELECT a.id, a.user_id, a.amount, a.type, a.ep,
                   CASE WHEN EXISTS (
                            SELECT 1 FROM {TX} p
                            WHERE p.user_id = a.user_id AND p.status = %s AND p.created_at >= {second}
                              AND p.created_at <= %s AND p.id < a.id
                        ) THEN a.ep
                        ELSE (
                            SELECT {epoch_sql("MAX(p.created_at)")} FROM {TX} p
                            WHERE p.user_id = a.user_id AND p.status = %s AND p.created_at >= %s
                              AND p.created_at < {second}
                        )
                   END AS prev_ep
            FROM a
        )"""
    lookback = scope.since - dt.timedelta(seconds=gap)
    params = [
        uuid_param(scope.anchor_id),
        *row_params,
        COMPLETED,
        db_time(scope.until),
        COMPLETED,
        db_time(lookback),
    ]
    return sql, params


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return bounds.at_least(tx, rule.conditions["thresholdAmount"]) and bounds.types_ok(rule, tx)


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"{money(d['amount'])} moved after {number(d['inactive_days'])} days without any transaction.",
        f"Rule: at least {money(c['thresholdAmount'])} after {number(c['inactiveDays'])} days of inactivity.",
    )


PARAMETERS = {"inactiveDays": WINDOW, "thresholdAmount": AMOUNT}

CATALOGUE = (
    shipped_rule(
        "AML-ACC-001",
        "account_lifecycle",
        "Dormant account woken with a large amount",
        "No activity for 180 days, then a transaction of E15,000 or more.",
        "HIGH",
        25,
        "Account lifecycle",
        inactiveDays=180,
        thresholdAmount=15000,
    ),
    shipped_rule(
        "AML-ACC-002",
        "account_lifecycle",
        "Quiet account suddenly active",
        "No activity for 90 days, then a transaction of E25,000 or more.",
        "MEDIUM",
        45,
        "Account lifecycle",
        inactiveDays=90,
        thresholdAmount=25000,
    ),
    shipped_rule(
        "AML-ACC-003",
        "account_lifecycle",
        "Year-long dormant account reactivated",
        "No activity for a year, then any transaction of E5,000 or more.",
        "MEDIUM",
        45,
        "Account lifecycle",
        inactiveDays=365,
        thresholdAmount=5000,
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.ACCOUNT_LIFECYCLE, PARAMETERS, evaluate, could_hit, finding, CATALOGUE)
