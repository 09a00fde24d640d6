"""What a rule type's prefilter facts are made of (``could_hit`` and ``activity_plan`` in ``engine/<type>.py``).

At record time a rule's hit must include the new row, and every evaluator's
hit is anchored on a row that passes the evaluator's own row filter (its
types, channel, country, amount bound...). A row that fails that filter
cannot be in any hit of the rule, so the rule's query is skipped. These are
necessary conditions only, mirroring each evaluator's filter: when in doubt
(a value the database might compare differently), the rule runs. The
equivalence test (record time = batch scan) and
``compliance/aml/tests/transactions/test_prefilter.py`` hold them to that.
"""

import datetime as dt
from decimal import Decimal

from django.db import connection

from backoffice.money import money_sum
from compliance.aml.engine.base import db_time, money, uuid_param
from kyc.models import UserActivityHour


def types_ok(rule, tx, default=None) -> bool:
    """The row's type is one the rule looks at (its transactionTypes, else ``default``; None = all)."""
    types = rule.conditions.get("transactionTypes") or default
    return not types or tx.type in types


def at_least(tx, amount) -> bool:
    """The row's amount reaches ``amount`` (exact cents)."""
    return Decimal(tx.amount) >= money(amount)


def _same_text(value: str, choices) -> bool | None:
    """Case-insensitive membership as SQL's LOWER(TRIM()) sees it; None when only the database can tell."""
    if not value.isascii() or not all(c.isascii() for c in choices):
        return None
    return value.strip(" ").lower() in {c.strip(" ").lower() for c in choices}


def text_rule(value: str, choices) -> bool:
    """False only when ``value`` is surely none of ``choices`` as the database compares them."""
    same = _same_text(value or "", choices)
    return True if same is None else same


def vendor_sector(tx) -> str | None:
    """The business sector of the vendor the row pays, if any."""
    vendor = tx.counterparty_vendor if tx.counterparty_vendor_id else None
    return vendor.business_sector if vendor is not None else None


# ---------------------------------------------------------------- second stage: the wallet's hourly activity
#
# For window rules that survive the row filter, one query sums the wallet's hourly activity
# (``kyc.models.UserActivityHour``, which holds the completed rows other than this one) over each rule's
# window, rounded outwards to whole hours, plus this row: an upper bound of what the rule's query would
# count. A rule whose condition the upper bound cannot meet is skipped. Velocity windows are whole UTC hours,
# so its previous window's total is exact; a dormancy rule needs the last active hour before this one.

HOUR = 3600


def _floor_hour(epoch: int) -> int:
    return epoch - epoch % HOUR


class Sums:
    """Builds the one query: a conditional COUNT/SUM/MAX per (rule, measure)."""

    def __init__(self, tx):
        self.tx = tx
        self.t = int(tx.created_at.timestamp())
        self.db_time = db_time
        self.columns: list[str] = []
        self.params: list = []

    def window(self, start_epoch: int, end_epoch: int, *, types=None, channel=None) -> tuple[int, int, int]:
        """Indexes of (count, total, max) over hours [floor(start), floor(end)] of the filtered activity."""
        cond = "a.hour >= %s AND a.hour <= %s"
        params: list = [
            self.db_time(dt.datetime.fromtimestamp(_floor_hour(start_epoch), tz=dt.UTC)),
            self.db_time(dt.datetime.fromtimestamp(_floor_hour(end_epoch), tz=dt.UTC)),
        ]
        if types:
            cond += f" AND a.type IN ({', '.join(['%s'] * len(types))})"
            params += list(types)
        if channel:
            cond += " AND a.channel = %s"
            params.append(channel)
        first = len(self.columns)
        # FILTER, not CASE: the aggregate skips a row outside the window instead of adding a zero (a busy
        # wallet's month is thousands of rows times every rule's columns); an empty window sums to NULL
        for expr in (f"SUM(a.count) FILTER (WHERE {cond})",
                     money_sum(f"SUM(a.total) FILTER (WHERE {cond})"),
                     f"MAX(a.max_amount) FILTER (WHERE {cond})"):  # fmt: skip
            self.columns.append(expr)
            self.params += params
        return first, first + 1, first + 2

    def fetch(self, lookback_start: int) -> list:
        if not self.columns:
            return []
        table = UserActivityHour._meta.db_table
        sql = f"SELECT {', '.join(self.columns)} FROM {table} a WHERE a.user_id = %s AND a.hour >= %s AND a.hour <= %s"
        since = dt.datetime.fromtimestamp(_floor_hour(lookback_start), tz=dt.UTC)
        until = dt.datetime.fromtimestamp(_floor_hour(self.t), tz=dt.UTC)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*self.params, uuid_param(self.tx.user_id), self.db_time(since), self.db_time(until)])
            return list(cursor.fetchone())


def mine(tx, types=None, channel=None) -> tuple[int, Decimal]:
    """This row's own share of a window (it is not in the activity yet)."""
    if (types and tx.type not in types) or (channel and tx.channel != channel):
        return 0, Decimal(0)
    return 1, Decimal(tx.amount)


def window_seconds(conditions: dict) -> int:
    """A window rule's length in whole seconds, from its ``timeWindowHours`` or ``timeWindowMinutes``."""
    if "timeWindowHours" in conditions:
        return int(float(conditions["timeWindowHours"]) * HOUR)
    return int(float(conditions["timeWindowMinutes"]) * 60)


def rolling_plan(sums: "Sums", *, seconds: int, types, channel=None, need_count=1, need_total=Decimal(0)):
    """A rolling window ending at the row: could it hold ``need_count`` rows and ``need_total`` with this one?"""
    idx = sums.window(sums.t - seconds, sums.t, types=types, channel=channel)

    def check(row):
        n, amount = mine(sums.tx, types, channel)
        return (row[idx[0]] or 0) + n >= need_count and Decimal(row[idx[1]] or 0) + amount >= need_total

    return sums.t - seconds, check
