"""What every evaluator shares: the scan scope, the hit, and the portable SQL pieces.

Evaluators are set-based: one SQL statement (or one ORM query) per rule over
the whole scope, never a Python loop per transaction. The SQL runs unchanged
on PostgreSQL and SQLite (3.28+, for RANGE window frames); only the epoch
expression and the money parameter type differ per vendor.
"""

import datetime as dt
import uuid
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import connection

from kyc.choices import CREDIT_TYPES, TransactionStatus, TransactionType
from kyc.models import PlatformUser, Transaction
from vendors.models import Vendor

TX = Transaction._meta.db_table
USERS = PlatformUser._meta.db_table
VENDORS = Vendor._meta.db_table
COMPLETED = TransactionStatus.COMPLETED
DEBIT_TYPES = [t for t in TransactionType.values if t not in CREDIT_TYPES]
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Scope:
    """The transactions a scan looks at: created in [since, until], optionally of one user.

    Aggregate rules also read up to one window before ``since`` so that a
    window ending inside the scope is complete; they only report hits whose
    last (anchor) transaction lies inside it.
    """

    since: dt.datetime
    until: dt.datetime
    user_id: uuid.UUID | None = None
    # record time: the ledger row being decided (``since`` = ``until`` = its time, ``user_id`` its wallet).
    # Only hits that include it matter then, and window rules read that row's window alone
    # (``windows.rolling_hits``), not a window per row.
    anchor_id: uuid.UUID | None = None

    @property
    def since_epoch(self) -> int:
        return int(self.since.timestamp())


@dataclass
class Hit:
    """One rule hit: whose, on which transactions, why; ``key`` tells hits of one rule apart."""

    user_id: uuid.UUID
    transaction_ids: list[uuid.UUID]
    details: dict
    key: str
    extra: dict = field(default_factory=dict)


def as_uuid(value) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def money(value) -> Decimal:
    """A parameter or SQL aggregate as exact cents."""
    return Decimal(str(value)).quantize(CENT)


def money_json(value) -> float:
    # JSON has no decimal type: a 2-decimal float prints back exactly as its cents
    return float(money(value))


def epoch_sql(column: str) -> str:
    """Whole seconds since 1970 of a timestamp column, as an integer, on either database."""
    if connection.vendor == "postgresql":
        # date_part gives a double; EXTRACT gives numeric, four times slower over a million rows
        return f"CAST(FLOOR(date_part('epoch', {column})) AS BIGINT)"
    return f"CAST(strftime('%%s', {column}) AS INTEGER)"


def timestamp_sql(seconds_expr: str) -> str:
    """The UTC timestamp of an epoch-seconds expression, comparable with a timestamp column."""
    if connection.vendor == "postgresql":
        return f"to_timestamp({seconds_expr})"
    return f"datetime({seconds_expr}, 'unixepoch')"


def db_money(value):
    """A money parameter in the type the database compares exactly with its amount column.

    SQLite keeps amounts as REAL and would compare a Decimal (sent as text)
    as a string; PostgreSQL compares numeric with numeric.
    """
    value = Decimal(str(value))
    return value if connection.vendor == "postgresql" else float(value)


def db_time(moment: dt.datetime):
    return connection.ops.adapt_datetimefield_value(moment)


def placeholders(values) -> str:
    return ", ".join(["%s"] * len(values))


def fetch(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def tx_types(rule, default: list[str] | None) -> list[str] | None:
    """The ledger types a rule looks at: its transactionTypes, else the evaluator's default (None = all)."""
    return rule.conditions.get("transactionTypes") or default


def scope_sql(scope: Scope, *, lookback_seconds: int = 0, alias: str = "t") -> tuple[str, list]:
    """WHERE fragment: completed rows of the scope, reaching ``lookback_seconds`` before ``since``."""
    start = scope.since - dt.timedelta(seconds=lookback_seconds)
    sql = f"{alias}.status = %s AND {alias}.created_at >= %s AND {alias}.created_at <= %s"
    params: list = [COMPLETED, db_time(start), db_time(scope.until)]
    if scope.user_id is not None:
        sql += f" AND {alias}.user_id = %s"
        params.append(uuid_param(scope.user_id))
    return sql, params


def uuid_param(value):
    value = as_uuid(value)
    return value if connection.vendor == "postgresql" else value.hex


def types_sql(types: list[str] | None, alias: str = "t") -> tuple[str, list]:
    if not types:
        return "1 = 1", []
    return f"{alias}.type IN ({placeholders(types)})", list(types)


def group_rows(rows, key_len: int) -> dict[tuple, list]:
    """Rows (k1..kn, metrics..., tx_id) grouped by their first ``key_len`` columns, keeping order."""
    groups: dict[tuple, list] = {}
    for row in rows:
        groups.setdefault(tuple(row[:key_len]), []).append(row)
    return groups
