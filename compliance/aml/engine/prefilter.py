"""Which rules could hit a transaction at all, from the transaction alone (no query).

At record time a rule's hit must include the new row, and every evaluator's
hit is anchored on a row that passes the evaluator's own row filter (its
types, channel, country, amount bound...). A row that fails that filter
cannot be in any hit of the rule, so the rule's query is skipped. These are
necessary conditions only, mirroring each evaluator's filter: when in doubt
(a value the database might compare differently), the rule runs. The
equivalence test (record time = batch scan) and
``compliance/aml/tests/transactions/test_prefilter.py`` hold them to that.
"""

from decimal import Decimal

from compliance.aml.engine.base import DEBIT_TYPES, money
from compliance.aml.engine.structuring import DEFAULT_TYPES as STRUCTURING_TYPES


def _types_ok(rule, tx, default=None) -> bool:
    types = rule.conditions.get("transactionTypes") or default
    return not types or tx.type in types


def _at_least(tx, amount) -> bool:
    return Decimal(tx.amount) >= money(amount)


def _same_text(value: str, choices) -> bool | None:
    """Case-insensitive membership as SQL's LOWER(TRIM()) sees it; None when only the database can tell."""
    if not value.isascii() or not all(c.isascii() for c in choices):
        return None
    return value.strip(" ").lower() in {c.strip(" ").lower() for c in choices}


def _text_rule(value: str, choices) -> bool:
    same = _same_text(value or "", choices)
    return True if same is None else same


def _vendor_sector(tx) -> str | None:
    vendor = tx.counterparty_vendor if tx.counterparty_vendor_id else None
    return vendor.business_sector if vendor is not None else None


CHECKS = {
    "threshold": lambda r, tx: _at_least(tx, r.conditions["thresholdAmount"]) and _types_ok(r, tx),
    "behavioral": lambda r, tx: (
        _at_least(tx, r.conditions["thresholdAmount"])
        and _types_ok(r, tx)
        and _text_rule(tx.user.occupation, r.conditions["occupations"])
    ),
    "pep_related": lambda r, tx: (
        _at_least(tx, r.conditions["thresholdAmount"]) and _types_ok(r, tx) and tx.user.is_potential_pep
    ),
    "high_risk_transaction": lambda r, tx: (
        _at_least(tx, r.conditions["thresholdAmount"])
        and tx.type in r.conditions["transactionTypes"]
        and (not r.conditions.get("channels") or tx.channel in r.conditions["channels"])
        and (not r.conditions.get("foreignOnly") or tx.country != "SZ")
    ),
    "regional_risk": lambda r, tx: (
        _at_least(tx, r.conditions.get("thresholdAmount", 0))
        and _types_ok(r, tx)
        and _text_rule(tx.region, r.conditions["regions"])
    ),
    "account_lifecycle": lambda r, tx: _at_least(tx, r.conditions["thresholdAmount"]) and _types_ok(r, tx),
    "structuring": lambda r, tx: (
        Decimal(tx.amount) < money(r.conditions["thresholdAmount"]) and _types_ok(r, tx, STRUCTURING_TYPES)
    ),
    "network_analysis": lambda r, tx: tx.type == "TRANSFER_IN" and tx.counterparty_user_id is not None,
    "pattern_detection": lambda r, tx: _at_least(tx, r.conditions["minAmount"]) and _types_ok(r, tx),
    # a top-up large enough, or one of the outflows that drain it
    "digital_wallet": lambda r, tx: (
        (tx.type == "TOP_UP" and _at_least(tx, r.conditions["minAmount"]))
        or tx.type in (r.conditions.get("transactionTypes") or DEBIT_TYPES)
    ),
    "mobile_money": lambda r, tx: tx.channel == "MOBILE_MONEY" and _types_ok(r, tx),
    # every row of the hit is a payment to the row's own vendor, whose KYC status the rule may name
    "vendor_specific": lambda r, tx: (
        tx.type == "VENDOR_PAYMENT"
        and tx.counterparty_vendor_id is not None
        and (
            not r.conditions.get("vendorStatuses")
            or tx.counterparty_vendor.kyc_status in r.conditions["vendorStatuses"]
        )
    ),
    "cft_related": lambda r, tx: tx.country in r.conditions["countries"] and _types_ok(r, tx),
    "business_sector": lambda r, tx: (
        tx.type in ("VENDOR_PAYMENT", "CARD_PAYMENT")
        and tx.counterparty_vendor_id is not None
        and _text_rule(_vendor_sector(tx) or "", r.conditions["sectors"])
    ),
    "velocity": lambda r, tx: _types_ok(r, tx),
    "regulatory_reporting": lambda r, tx: _types_ok(r, tx),
}


def could_hit(rule, tx) -> bool:
    """False only when ``tx`` cannot be part of any hit of ``rule`` (so its query can be skipped)."""
    check = CHECKS.get(rule.rule_type)
    return True if check is None else bool(check(rule, tx))


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


class _Sums:
    """Builds the one query: a conditional COUNT/SUM/MAX per (rule, measure)."""

    def __init__(self, tx):
        from compliance.aml.engine.base import db_time

        self.tx = tx
        self.t = int(tx.created_at.timestamp())
        self.db_time = db_time
        self.columns: list[str] = []
        self.params: list = []

    def window(self, start_epoch: int, end_epoch: int, *, types=None, channel=None) -> tuple[int, int, int]:
        """Indexes of (count, total, max) over hours [floor(start), floor(end)] of the filtered activity."""
        import datetime as dt

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
                     f"SUM(a.total) FILTER (WHERE {cond})",
                     f"MAX(a.max_amount) FILTER (WHERE {cond})"):  # fmt: skip
            self.columns.append(expr)
            self.params += params
        return first, first + 1, first + 2

    def fetch(self, lookback_start: int) -> list:
        import datetime as dt

        from django.db import connection

        from compliance.aml.engine.base import uuid_param
        from kyc.models import UserActivityHour

        if not self.columns:
            return []
        table = UserActivityHour._meta.db_table
        sql = f"SELECT {', '.join(self.columns)} FROM {table} a WHERE a.user_id = %s AND a.hour >= %s AND a.hour <= %s"
        since = dt.datetime.fromtimestamp(_floor_hour(lookback_start), tz=dt.UTC)
        until = dt.datetime.fromtimestamp(_floor_hour(self.t), tz=dt.UTC)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*self.params, uuid_param(self.tx.user_id), self.db_time(since), self.db_time(until)])
            return list(cursor.fetchone())


def _mine(tx, types=None, channel=None) -> tuple[int, Decimal]:
    """This row's own share of a window (it is not in the activity yet)."""
    if (types and tx.type not in types) or (channel and tx.channel != channel):
        return 0, Decimal(0)
    return 1, Decimal(tx.amount)


def _velocity_plan(rule, sums: "_Sums"):
    c = rule.conditions
    hours = float(c["timeWindowHours"])
    if hours != int(hours):
        return None
    w = int(hours) * HOUR
    types = c.get("transactionTypes") or None
    start = sums.t // w * w
    cur = sums.window(start, sums.t, types=types)
    prev = sums.window(start - w, start - 1, types=types)
    factor = Decimal(str(100.0 + float(c["percentageChange"])))
    min_amount = money(c.get("minAmount", 0))

    def check(row):
        n, amount = _mine(sums.tx, types)
        cur_total = Decimal(row[cur[1]] or 0) + amount
        prev_total = Decimal(row[prev[1]] or 0)  # whole hours: exact
        return prev_total > 0 and cur_total >= min_amount and cur_total * 100 >= prev_total * factor

    return start - w, check


def _rolling_plan(rule, sums: "_Sums", *, seconds: int, types, channel=None, need_count=1, need_total=Decimal(0)):
    idx = sums.window(sums.t - seconds, sums.t, types=types, channel=channel)

    def check(row):
        n, amount = _mine(sums.tx, types, channel)
        return (row[idx[0]] or 0) + n >= need_count and Decimal(row[idx[1]] or 0) + amount >= need_total

    return sums.t - seconds, check


def _plan(rule, sums: "_Sums"):
    """(earliest epoch read, check(row) -> could hit) for a rule the activity can bound, else None."""
    c, kind = rule.conditions, rule.rule_type
    if kind == "velocity":
        return _velocity_plan(rule, sums)
    if kind == "structuring":
        return _rolling_plan(
            rule,
            sums,
            seconds=int(float(c["timeWindowHours"]) * HOUR),
            types=c.get("transactionTypes") or STRUCTURING_TYPES,
            need_count=int(c["thresholdCount"]),
            need_total=money(c["thresholdAmount"]),
        )
    if kind == "network_analysis":
        return _rolling_plan(
            rule,
            sums,
            seconds=int(float(c["timeWindowHours"]) * HOUR),
            types=["TRANSFER_IN"],
            need_count=int(c["minSenders"]),
            need_total=money(c["minTotalAmount"]),
        )
    if kind == "mobile_money":
        return _rolling_plan(
            rule,
            sums,
            seconds=int(float(c["timeWindowHours"]) * HOUR),
            types=c.get("transactionTypes") or None,
            channel="MOBILE_MONEY",
            need_count=int(c["minCount"]),
            need_total=money(c["minTotalAmount"]),
        )
    if kind == "pattern_detection":
        return _rolling_plan(
            rule,
            sums,
            seconds=int(float(c["timeWindowMinutes"]) * 60),
            types=c.get("transactionTypes") or None,
            need_count=int(c.get("minCount", 3)),
        )
    if kind == "vendor_specific":
        return _rolling_plan(
            rule,
            sums,
            seconds=int(float(c["timeWindowHours"]) * HOUR),
            types=["VENDOR_PAYMENT"],
            need_count=int(c.get("minCount", 1)),
            need_total=money(c["thresholdAmount"]),
        )
    if kind == "business_sector":
        return _rolling_plan(
            rule,
            sums,
            seconds=int(float(c["timeWindowHours"]) * HOUR),
            types=["VENDOR_PAYMENT", "CARD_PAYMENT"],
            need_total=money(c["thresholdAmount"]),
        )
    if kind == "regulatory_reporting":
        day = 86400
        offset = 2 * HOUR  # Eswatini days, as the evaluator's
        start = (sums.t + offset) // day * day - offset
        return _rolling_plan(
            rule,
            sums,
            seconds=sums.t - start,
            types=c.get("transactionTypes") or None,
            need_total=money(c["reportingThreshold"]),
        )
    if kind == "digital_wallet" and sums.tx.type != "TOP_UP":
        # an outflow: it drains a large enough top-up of the last window, or nothing
        seconds = int(float(c["timeWindowMinutes"]) * 60)
        idx = sums.window(sums.t - seconds, sums.t, types=["TOP_UP"])
        floor = money(c["minAmount"])
        return sums.t - seconds, lambda row: row[idx[2]] is not None and Decimal(row[idx[2]]) >= floor
    return None


def activity_skips(rules, tx) -> set:
    """The rules among ``rules`` (all past ``could_hit``) that the wallet's activity shows cannot hit ``tx``."""
    sums = _Sums(tx)
    plans = {}
    for rule in rules:
        try:
            plan = _plan(rule, sums)
        except (KeyError, TypeError, ValueError):  # a rule the evaluator will report on: let it run
            plan = None
        if plan is not None:
            plans[rule] = plan
    if not plans:
        return set()
    row = sums.fetch(min(start for start, _check in plans.values()))
    return {rule for rule, (_start, check) in plans.items() if not check(row)}
