"""The two aggregate shapes most rules share: rolling windows and fixed buckets.

``rolling_hits``: for every transaction, aggregate the same user's matching
transactions in the window that ends at it (a RANGE window frame over epoch
seconds). A transaction whose window meets the rule's condition triggers;
the first trigger per user (and partition, e.g. vendor) in each window-sized
time bucket becomes the hit, so one burst gives one alert and re-running
the scan, or scanning transaction by transaction, finds the same hit again.

``bucket_hits``: totals per user per fixed bucket (a UTC day, a window),
for rules defined on calendar periods.
"""

from decimal import Decimal

from django.db import connection

from backoffice.money import money_sum
from compliance.aml.engine.base import (
    COMPLETED,
    TX,
    Hit,
    Scope,
    as_uuid,
    db_time,
    epoch_sql,
    fetch,
    group_rows,
    money,
    placeholders,
    scope_sql,
    timestamp_sql,
    uuid_param,
)

# what a joined window query may read of the wallet's rows (kyc's index ``kyc_tx_user_window`` covers them)
WALLET_COLUMNS = ", ".join(
    f"t.{column}"
    for column in (
        "id",
        "user_id",
        "status",
        "type",
        "amount",
        "channel",
        "created_at",
        "counterparty_user_id",
        "counterparty_vendor_id",
    )
)


def rolling_hits(
    scope: Scope,
    *,
    window_seconds: int,
    where: str,
    params: list,
    having: str,
    having_params: list,
    joins: str = "",
    partition: str = "''",
    counterparty: str = "NULL",
    min_distinct_counterparties: int | None = None,
) -> list[tuple]:
    """Rows (user_id, part, bucket, anchor_ep, n, total, lo, hi, tx_id, tx_ep), one per transaction of each hit.

    ``where`` filters the transactions (alias ``t``); ``having`` is a condition
    on the window aggregates n, total, lo, hi. ``min_distinct_counterparties``
    adds a distinct-count condition on ``counterparty`` (window functions
    cannot count distinct values, so it is checked by a join on the candidates).
    """
    w = int(window_seconds)
    scope_where, scope_params = scope_sql(scope, lookback_seconds=w)
    ep = epoch_sql("t.created_at")
    if scope.anchor_id is not None:
        source = f"{TX} t {joins} WHERE {scope_where} AND ({where})"
        if joins:
            # the wallet's window first, then the join: planned the other way round, PostgreSQL probed the
            # wallet's index once per vendor of a sector (AML-BUS-001 on the million-row bench's busiest wallet:
            # 165-215 ms, against 17-28 ms this way)
            materialized = "MATERIALIZED" if connection.vendor == "postgresql" else ""
            source = f"wallet t {joins} WHERE ({where})"
        base_sql = f"""SELECT t.id AS id, t.user_id AS user_id, {partition} AS part, {counterparty} AS cp,
                              t.amount AS amount, {ep} AS ep
                       FROM {source}"""
        if joins:
            # only the columns of the ledger's (user, created_at) covering index: the window is then read from
            # the index alone, not a heap page per row (a joined rule's ``where`` and ``partition`` use these)
            base_sql = (
                f"WITH wallet AS {materialized} (SELECT {WALLET_COLUMNS} FROM {TX} t WHERE {scope_where}) {base_sql}"
            )
        return _anchored_rows(
            scope,
            window_seconds=w,
            base_sql=base_sql,
            base_params=[*scope_params, *params],
            having=having,
            having_params=having_params,
            min_distinct_counterparties=min_distinct_counterparties,
        )
    distinct_cte = ""
    distinct_filter = ""
    distinct_params: list = []
    # nd: rows whose previous row from the same counterparty is more than a window earlier. Two rows of one
    # counterparty inside a window are at most a window apart, so nd never counts one twice: it is a lower
    # bound of the distinct count, exact when counterparties do not repeat. Only candidates it cannot
    # settle get the exact (and costlier) distinct count by a join.
    new_cp = "0"
    if min_distinct_counterparties:
        new_cp = f"CASE WHEN LAG(ep) OVER (PARTITION BY user_id, part, cp ORDER BY ep) >= ep - {w} THEN 0 ELSE 1 END"
        distinct_cte = f""",
        distinct_ok AS (
            SELECT id FROM trig WHERE nd >= %s
            UNION ALL
            SELECT tr.id FROM trig tr
            JOIN base b ON b.user_id = tr.user_id AND b.part = tr.part AND b.ep >= tr.ep - {w} AND b.ep <= tr.ep
            WHERE tr.nd < %s
            GROUP BY tr.id HAVING COUNT(DISTINCT b.cp) >= %s
        )"""
        distinct_filter = "WHERE id IN (SELECT id FROM distinct_ok)"
        distinct_params = [int(min_distinct_counterparties)] * 3
    sql = f"""
        WITH base AS (
            SELECT t.id AS id, t.user_id AS user_id, {partition} AS part, {counterparty} AS cp,
                   t.amount AS amount, {ep} AS ep
            FROM {TX} t {joins}
            WHERE {scope_where} AND ({where})
        ),
        marked AS (
            SELECT id, user_id, part, amount, ep, {new_cp} AS is_new FROM base
        ),
        roll AS (
            SELECT id, user_id, part, ep,
                   COUNT(*) OVER w AS n, {money_sum("SUM(amount) OVER w")} AS total,
                   MIN(amount) OVER w AS lo, MAX(amount) OVER w AS hi, SUM(is_new) OVER w AS nd
            FROM marked
            WINDOW w AS (PARTITION BY user_id, part ORDER BY ep RANGE BETWEEN {w} PRECEDING AND CURRENT ROW)
        ),
        trig AS (
            SELECT id, user_id, part, ep, n, total, lo, hi, nd, ep / {w} AS bucket
            FROM roll WHERE ep >= %s AND ({having})
        ){distinct_cte},
        firsts AS (
            SELECT id, user_id, part, ep, n, total, lo, hi, bucket,
                   ROW_NUMBER() OVER (PARTITION BY user_id, part, bucket ORDER BY ep, id) AS rn
            FROM trig {distinct_filter}
        )
        SELECT f.user_id, f.part, f.bucket, f.ep, f.n, f.total, f.lo, f.hi, b.id, b.ep
        FROM firsts f
        JOIN base b ON b.user_id = f.user_id AND b.part = f.part AND b.ep >= f.ep - {w} AND b.ep <= f.ep
        WHERE f.rn = 1
        ORDER BY f.user_id, f.part, f.bucket, b.ep, b.id
    """
    return fetch(sql, [*scope_params, *params, scope.since_epoch, *having_params, *distinct_params])


def _anchored_rows(
    scope: Scope,
    *,
    window_seconds: int,
    base_sql: str,
    base_params: list,
    having: str,
    having_params: list,
    min_distinct_counterparties: int | None,
) -> list[tuple]:
    """``rolling_hits`` at record time, for the one row being decided: one aggregate over its own window.

    With ``since`` = ``until`` = the row's time, the scope holds exactly the row's window (the rows of its
    wallet from ``window`` seconds before it up to it), and every row of the scope sharing its epoch second
    has that same RANGE frame. So the hit that includes the row, if any, is: the rows of its partition in
    the scope, when their count, total, smallest, largest (and distinct counterparties) meet the rule;
    anchored on that second, bucketed by it. The same rows, figures, bucket and order as the window query
    gives, from one index range of one wallet instead of a window computed for every row of it.
    """
    w = int(window_seconds)
    anchor_ep = scope.since_epoch
    distinct, distinct_cond, distinct_params = "", "", []
    if min_distinct_counterparties:
        distinct, distinct_cond = ", COUNT(DISTINCT cp) AS nd", " AND a.nd >= %s"
        distinct_params = [int(min_distinct_counterparties)]
    # the one aggregate, computed once: inlined, PostgreSQL re-ran it for every row of the window it is
    # cross-joined with (a nested loop over a busy wallet's day: 152 aggregates of 152 rows, 18 ms, not 0.7)
    materialized = "MATERIALIZED" if connection.vendor == "postgresql" else ""
    sql = f"""
        WITH base AS ({base_sql}),
        mine AS (SELECT part FROM base WHERE id = %s),
        agg AS {materialized} (
            SELECT COUNT(*) AS n, {money_sum("SUM(amount)")} AS total, MIN(amount) AS lo, MAX(amount) AS hi{distinct}
            FROM base WHERE part IN (SELECT part FROM mine)
        )
        SELECT b.user_id, b.part, %s, %s, a.n, a.total, a.lo, a.hi, b.id, b.ep
        FROM base b CROSS JOIN agg a
        WHERE b.part IN (SELECT part FROM mine) AND ({having}){distinct_cond}
        ORDER BY b.ep, b.id
    """
    return fetch(
        sql,
        [
            *base_params,
            uuid_param(scope.anchor_id),
            anchor_ep // w,
            anchor_ep,
            *having_params,
            *distinct_params,
        ],
    )


def rolling_to_hits(rows, *, window_seconds: int, describe) -> list[Hit]:
    """Hits from rolling_hits rows; ``describe(n, total, lo, hi)`` gives the details of one hit."""
    hits = []
    for (user_id, part, bucket), group in group_rows(rows, 3).items():
        _, _, _, anchor_ep, n, total, lo, hi = group[0][:8]
        details = {
            "window_seconds": int(window_seconds),
            "window_end_epoch": int(anchor_ep),
            **describe(n, total, lo, hi),
        }
        if part not in ("", None):
            details["partition"] = str(part)
        hits.append(
            Hit(
                user_id=as_uuid(user_id),
                transaction_ids=[as_uuid(row[8]) for row in group],
                details=details,
                key=f"user:{as_uuid(user_id)}:part:{part or ''}:bucket:{bucket}",
            )
        )
    return hits


def bucket_totals_sql(
    scope: Scope, *, bucket_seconds: int, where: str, lookback_buckets: int = 0, offset_seconds: int = 0
) -> tuple[str, list]:
    """CTE ``agg`` (user_id, bucket, n, total): totals per user over fixed buckets.

    Buckets are aligned on multiples of ``bucket_seconds`` since 1970, shifted
    by ``offset_seconds`` (7200 makes days of Eswatini time, UTC+2); the scope
    is widened to whole buckets, plus ``lookback_buckets`` before.
    """
    b, off = int(bucket_seconds), int(offset_seconds)
    start_bucket = (scope.since_epoch + off) // b - lookback_buckets
    lookback = scope.since_epoch - (start_bucket * b - off)
    scope_where, scope_params = scope_sql(scope, lookback_seconds=lookback)
    bucket = f"({epoch_sql('t.created_at')} + {off}) / {b}"
    sql = f"""
        WITH agg AS (
            SELECT t.user_id AS user_id, {bucket} AS bucket, COUNT(*) AS n, {money_sum("SUM(t.amount)")} AS total
            FROM {TX} t WHERE {scope_where} AND ({where})
            GROUP BY t.user_id, {bucket}
        )
    """
    return sql, scope_params


def bucket_members_join(
    scope: Scope,
    *,
    bucket_seconds: int,
    source: str,
    types: list[str] | None,
    offset_seconds: int = 0,
    channels: list[str] | None = None,
) -> tuple[str, list]:
    """JOIN of the ledger rows (alias ``b``) that make up the buckets of ``source`` (user_id, bucket).

    A created_at range per bucket, not a computed bucket, so each bucket's rows
    come from the (user, created_at) index instead of a second pass over the scope.
    """
    n, off = int(bucket_seconds), int(offset_seconds)
    sql = (
        f"JOIN {TX} b ON b.user_id = {source}.user_id"
        f" AND b.created_at >= {timestamp_sql(f'{source}.bucket * {n} - {off}')}"
        f" AND b.created_at < {timestamp_sql(f'({source}.bucket + 1) * {n} - {off}')}"
        " AND b.created_at <= %s AND b.status = %s"
    )
    params: list = [db_time(scope.until), COMPLETED]
    if types:
        sql += f" AND b.type IN ({placeholders(types)})"
        params += list(types)
    if channels:
        sql += f" AND b.channel IN ({placeholders(channels)})"
        params += list(channels)
    return sql, params


def first_crossing(group: list, *, amount_index: int, reached) -> list:
    """The rows of a bucket up to the one whose running total first meets the rule (``reached(total)``).

    Record-time screening raises a bucket's alert at that row, with the rows before it; the batch scan
    links the same rows, so both paths raise the same alert whichever sees the bucket first. A bucket
    that never crosses (a rule edited since) keeps all its rows.
    """
    running = Decimal(0)
    for index, row in enumerate(group):
        running += money(row[amount_index])
        if reached(running):
            return group[: index + 1]
    return group
