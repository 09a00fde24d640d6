"""account_lifecycle: a transaction of ``thresholdAmount`` or more after ``inactiveDays`` or more
without any completed transaction (an account that never transacted counts as inactive since it
was opened). The gap is measured on all types; the triggering row's types follow transactionTypes."""

from compliance.aml.engine.base import (
    TX,
    USERS,
    Hit,
    Scope,
    as_uuid,
    db_money,
    epoch_sql,
    fetch,
    money_json,
    scope_sql,
    tx_types,
)

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
    sql = f"""
        WITH base AS (
            SELECT t.id, t.user_id, t.amount, t.type, {epoch_sql("t.created_at")} AS ep
            FROM {TX} t WHERE {scope_where}
        ),
        lagged AS (
            SELECT id, user_id, amount, type, ep, LAG(ep) OVER (PARTITION BY user_id ORDER BY ep, id) AS prev_ep
            FROM base
        )
        SELECT l.id, l.user_id, l.amount, l.ep, l.prev_ep, {epoch_sql("u.created_at")} AS opened
        FROM lagged l JOIN {USERS} u ON u.id = l.user_id
        WHERE l.ep >= %s AND l.amount >= %s {type_filter}
          AND ((l.prev_ep IS NULL AND {epoch_sql("u.created_at")} <= l.ep - {gap})
               OR (l.prev_ep IS NOT NULL AND l.ep - l.prev_ep >= {gap}))
    """
    rows = fetch(sql, [*scope_params, scope.since_epoch, db_money(c["thresholdAmount"]), *type_params])
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
