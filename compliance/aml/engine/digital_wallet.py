"""digital_wallet: rapid top-up and transfer. A TOP_UP of ``minAmount`` or more of which at least
``topupPercentageTransferred`` % leaves the wallet within ``timeWindowMinutes`` after it. Outflows
are the debit types (transactionTypes narrows them). One hit per top-up."""

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
            HAVING SUM(out_amount) * 100 >= top_amount * %s
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
