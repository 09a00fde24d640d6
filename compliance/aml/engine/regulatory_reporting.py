"""regulatory_reporting: a user's transactions in one Eswatini calendar day (UTC+2, no daylight
saving) add up to ``reportingThreshold`` or more: a large-cash transaction report may be due.
One hit per user and day; all types unless transactionTypes."""

import datetime as dt

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

DAY = 86400
# Reports follow the local business day, which ends at 22:00 UTC.
ESWATINI_OFFSET = 2 * 3600


def evaluate(rule, scope: Scope):
    c = rule.conditions
    type_list = tx_types(rule, None)
    types, type_params = types_sql(type_list)
    ctes, params = bucket_totals_sql(scope, bucket_seconds=DAY, where=types, offset_seconds=ESWATINI_OFFSET)
    members, member_params = bucket_members_join(
        scope, bucket_seconds=DAY, source="d", types=type_list, offset_seconds=ESWATINI_OFFSET
    )
    sql = f"""{ctes},
        due AS (SELECT user_id, bucket, n, total FROM agg WHERE bucket >= %s AND total >= %s)
        SELECT d.user_id, d.bucket, d.n, d.total, b.id, b.amount FROM due d
        {members}
        ORDER BY d.user_id, d.bucket, b.created_at, b.id
    """
    rows = fetch(
        sql,
        [
            *params,
            *type_params,
            (scope.since_epoch + ESWATINI_OFFSET) // DAY,
            db_money(c["reportingThreshold"]),
            *member_params,
        ],
    )
    hits = []
    threshold = money(c["reportingThreshold"])
    for (user_id, bucket), whole in group_rows(rows, 2).items():
        group = first_crossing(whole, amount_index=5, reached=lambda run: run >= threshold)
        day = dt.datetime.fromtimestamp(int(bucket) * DAY, tz=dt.UTC).date()
        hits.append(
            Hit(
                user_id=as_uuid(user_id),
                transaction_ids=[as_uuid(r[4]) for r in group],
                key=f"user:{as_uuid(user_id)}:day:{day}",
                details={
                    "day": day.isoformat(),
                    # the day as it stood when it crossed, as record-time screening saw it
                    "count": len(group),
                    "total": money_json(sum(money(r[5]) for r in group)),
                    "reporting_threshold": money_json(c["reportingThreshold"]),
                },
            )
        )
    return hits
