"""velocity: the value a user moves in one window (``timeWindowHours``, fixed UTC-aligned buckets)
is at least ``percentageChange`` % above the window before, which must not be empty, and reaches
the optional ``minAmount`` (default 0). Compares money volume, all types unless transactionTypes."""

from decimal import Decimal

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import (
    Hit,
    Scope,
    as_uuid,
    db_money,
    fetch,
    group_rows,
    money_json,
    tx_types,
    types_sql,
)
from compliance.aml.engine.base import money as cents
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import bucket_members_join, bucket_totals_sql, first_crossing
from compliance.aml.engine.words import Finding, money, number, window_of
from compliance.aml.models.parameters import AMOUNT, PERCENT, WINDOW, optional


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
    min_amount = cents(c.get("minAmount", 0))
    factor = Decimal(str(100.0 + pct))
    for (user_id, bucket), whole in group_rows(rows, 2).items():
        prev = whole[0][3]
        previous = cents(prev)
        group = first_crossing(
            whole,
            amount_index=5,
            reached=lambda run, previous=previous: run >= min_amount and run * 100 >= previous * factor,
        )
        # the window as it stood when it crossed, as record-time screening saw it
        total = sum(cents(r[5]) for r in group)
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


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return bounds.types_ok(rule, tx)


def activity_plan(rule, sums: bounds.Sums):
    """Velocity windows are whole UTC hours, so the previous window's total is exact."""
    c = rule.conditions
    hours = float(c["timeWindowHours"])
    if hours != int(hours):
        return None
    w = int(hours) * bounds.HOUR
    types = c.get("transactionTypes") or None
    start = sums.t // w * w
    cur = sums.window(start, sums.t, types=types)
    prev = sums.window(start - w, start - 1, types=types)
    factor = Decimal(str(100.0 + float(c["percentageChange"])))
    min_amount = cents(c.get("minAmount", 0))

    def check(row):
        n, amount = bounds.mine(sums.tx, types)
        cur_total = Decimal(row[cur[1]] or 0) + amount
        prev_total = Decimal(row[prev[1]] or 0)  # whole hours: exact
        return prev_total > 0 and cur_total >= min_amount and cur_total * 100 >= prev_total * factor

    return start - w, check


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"{money(d['total'])} moved in {window_of(d, c)}, {number(d['percentage_change'])}% more than the "
        f"{window_of(d, c)} before ({money(d['previous_total'])}).",
        f"Rule: at least {number(c['percentageChange'])}% above the previous {window_of({}, c)}, "
        f"and at least {money(c.get('minAmount', 0))}.",
    )


PARAMETERS = {"percentageChange": PERCENT, "timeWindowHours": WINDOW, "minAmount": optional(AMOUNT)}

CATALOGUE = (
    shipped_rule(
        "AML-VEL-001",
        "velocity",
        "Sudden jump in daily volume",
        "The value moved in a day is more than four times (300% above) the day before, and at least E10,000.",
        "MEDIUM",
        50,
        "Velocity",
        percentageChange=300,
        timeWindowHours=24,
        minAmount=10000,
    ),
    shipped_rule(
        "AML-VEL-002",
        "velocity",
        "Weekly volume surge",
        "The value moved in a week is six times (500% above) the week before, and at least E30,000.",
        "HIGH",
        35,
        "Velocity",
        percentageChange=500,
        timeWindowHours=168,
        minAmount=30000,
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.VELOCITY, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan)
