"""regulatory_reporting: a user's cash transactions (channel CASH, at an agent) in one Eswatini calendar day
(UTC+2, no daylight saving) add up to ``reportingThreshold`` or more: a large-cash transaction report may be due.
One hit per user and day; all types unless transactionTypes. Money that never was cash (a wallet credit by
staff, a card or bank payment) owes no cash report, as the threshold reports themselves count only CASH."""

import datetime as dt

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
    placeholders,
    tx_types,
    types_sql,
)
from compliance.aml.engine.base import money as cents
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.windows import bucket_members_join, bucket_totals_sql, first_crossing
from compliance.aml.engine.words import Finding, money, plural
from compliance.aml.models.parameters import AMOUNT
from kyc.choices import Channel

# the channels a large-cash report is about
CASH_CHANNELS = [Channel.CASH.value]

DAY = 86400
# Reports follow the local business day, which ends at 22:00 UTC.
ESWATINI_OFFSET = 2 * 3600


def evaluate(rule, scope: Scope):
    c = rule.conditions
    type_list = tx_types(rule, None)
    types, type_params = types_sql(type_list)
    cash = f"t.channel IN ({placeholders(CASH_CHANNELS)})"
    ctes, params = bucket_totals_sql(
        scope, bucket_seconds=DAY, where=f"{types} AND {cash}", offset_seconds=ESWATINI_OFFSET
    )
    members, member_params = bucket_members_join(
        scope,
        bucket_seconds=DAY,
        source="d",
        types=type_list,
        offset_seconds=ESWATINI_OFFSET,
        channels=CASH_CHANNELS,
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
            *CASH_CHANNELS,
            (scope.since_epoch + ESWATINI_OFFSET) // DAY,
            db_money(c["reportingThreshold"]),
            *member_params,
        ],
    )
    hits = []
    threshold = cents(c["reportingThreshold"])
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
                    "total": money_json(sum(cents(r[5]) for r in group)),
                    "reporting_threshold": money_json(c["reportingThreshold"]),
                },
            )
        )
    return hits


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return tx.channel in CASH_CHANNELS and bounds.types_ok(rule, tx)


def activity_plan(rule, sums: bounds.Sums):
    c = rule.conditions
    start = (sums.t + ESWATINI_OFFSET) // DAY * DAY - ESWATINI_OFFSET  # the Eswatini day, as the evaluator's
    return bounds.rolling_plan(
        sums,
        seconds=sums.t - start,
        types=c.get("transactionTypes") or None,
        channel=CASH_CHANNELS[0],
        need_total=cents(c["reportingThreshold"]),
    )


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"{plural(d['count'], 'transaction')} on {d['day']} (Eswatini time) totalled {money(d['total'])}.",
        f"Rule: {money(c['reportingThreshold'])} or more in cash in one Eswatini day; a large-cash report may be due.",
    )


PARAMETERS = {"reportingThreshold": AMOUNT}

CATALOGUE = (
    shipped_rule(
        "AML-RPT-001",
        "regulatory_reporting",
        "Large cash transaction report due",
        "A customer's cash transactions (at an agent) reach E25,000 in one Eswatini calendar day: a large-cash "
        "transaction report to the Eswatini Financial Intelligence Unit may be due.",
        "HIGH",
        10,
        "Regulatory reporting",
        reportingThreshold=25000,
    ),
)

RULE_TYPE = RuleTypeSpec(
    RuleType.REGULATORY_REPORTING, PARAMETERS, evaluate, could_hit, finding, CATALOGUE, activity_plan
)
