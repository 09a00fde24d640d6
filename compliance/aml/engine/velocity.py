"""velocity: the value a user moves in one window (``timeWindowHours``, fixed UTC-aligned buckets)
is at least ``percentageChange`` % above the window before, which must not be empty, and reaches
the optional ``minAmount`` (default 0). Compares money volume, all types unless transactionTypes."""

from decimal import Decimal

from compliance.aml.engine.base import (
    Hit,
    Scope,
    as_uuid,
    db_money,
    fetch,
    group_rows,
    money,
    money_json,
    tx_types,
    types_sql,
)
from compliance.aml.engine.windows import bucket_members_join, bucket_totals_sql, first_crossing


def evaluate(rule, scope: Scope):
    c = rule.conditions
    window = int(float(c["timeWindowHours"]) * 3600)
    type_list = tx_types(rule, None)
    types, type_params = types_sql(type_list)
    ctes, params = bucket_totals_sql(scope, bucket_seconds=window, where=types, lookback_buckets=1)
    members, member_params = bucket_members_join(scope, bucket_seconds=window, source="c", types=type_list)
    pct = float(c["percentageChange"])
    sql = f"""{ctes},
        cmp AS (
            SELECT a.user_id, a.bucket, a.total, p.total AS prev FROM agg a
            JOIN agg p ON p.user_id = a.user_id AND p.bucket = a.bucket - 1
            WHERE a.bucket >= %s AND p.total > 0 AND a.total >= %s AND a.total * 100 >= p.total * %s
        )
        SELECT c.user_id, c.bucket, c.total, c.prev, b.id, b.amount FROM cmp c
        {members}
        ORDER BY c.user_id, c.bucket, b.created_at, b.id
    """
    rows = fetch(
        sql,
        [
            *params,
            *type_params,
            scope.since_epoch // window,
            db_money(c.get("minAmount", 0)),
            100.0 + pct,
            *member_params,
        ],
    )
    hits = []
    min_amount = money(c.get("minAmount", 0))
    factor = Decimal(str(100.0 + pct))
    for (user_id, bucket), whole in group_rows(rows, 2).items():
        prev = whole[0][3]
        previous = money(prev)
        group = first_crossing(
            whole,
            amount_index=5,
            reached=lambda run, previous=previous: run >= min_amount and run * 100 >= previous * factor,
        )
        # the window as it stood when it crossed, as record-time screening saw it
        total = sum(money(r[5]) for r in group)
        hits.append(
            Hit(
                user_id=as_uuid(user_id),
                transaction_ids=[as_uuid(r[4]) for r in group],
                key=f"user:{as_uuid(user_id)}:bucket:{bucket}",
                details={
                    "window_seconds": window,
                    "window_start_epoch": int(bucket) * window,
                    "total": money_json(total),
                    "previous_total": money_json(prev),
                    "percentage_change": round((float(total) / float(prev) - 1) * 100, 1),
                },
            )
        )
    return hits
