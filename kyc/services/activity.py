"""Per-wallet hourly activity (``kyc.models.UserActivityHour``), kept with the ledger.

``activity_add`` runs in the ledger's database transaction, under the wallet's row lock, for every row
that becomes COMPLETED (at record time, or when a held row is released): one upsert. ``activity_rebuild``
recomputes it from the ledger (migrations, bulk loaders that write the ledger with COPY).
"""

from django.db import connection

from backoffice.money import money_sum
from kyc.models import Transaction, UserActivityHour

ACTIVITY = UserActivityHour._meta.db_table
TX = Transaction._meta.db_table


def hour_of(moment):
    return moment.replace(minute=0, second=0, microsecond=0)


def _adapt(value):
    return connection.ops.adapt_datetimefield_value(value)


def _amount(value):
    # SQLite keeps money as REAL: send a number it adds, not text
    return value if connection.vendor == "postgresql" else float(value)


def activity_add(tx: Transaction) -> None:
    """Count one completed ledger row in its wallet's hour (the caller holds the wallet's row lock)."""
    greatest = "GREATEST" if connection.vendor == "postgresql" else "MAX"
    user_id = tx.user_id if connection.vendor == "postgresql" else tx.user_id.hex
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {ACTIVITY} (user_id, hour, type, channel, count, total, max_amount)
                VALUES (%s, %s, %s, %s, 1, %s, %s)
                ON CONFLICT (user_id, hour, type, channel) DO UPDATE SET
                    count = {ACTIVITY}.count + 1,
                    total = {money_sum(f"{ACTIVITY}.total + excluded.total")},
                    max_amount = {greatest}({ACTIVITY}.max_amount, excluded.max_amount)""",
            [user_id, _adapt(hour_of(tx.created_at)), tx.type, tx.channel, _amount(tx.amount), _amount(tx.amount)],
        )


def activity_rebuild(schema_editor_connection=None) -> None:
    """Recompute every wallet's hourly activity from the completed ledger rows."""
    conn = schema_editor_connection or connection
    hour = (
        "date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"
        if conn.vendor == "postgresql"
        else "strftime('%%Y-%%m-%%d %%H:00:00', created_at)"
    )
    with conn.cursor() as cursor:
        cursor.execute(f"DELETE FROM {ACTIVITY}")
        cursor.execute(
            f"""INSERT INTO {ACTIVITY} (user_id, hour, type, channel, count, total, max_amount)
                SELECT user_id, {hour}, type, channel, COUNT(*), {money_sum("SUM(amount)")}, MAX(amount)
                FROM {TX} WHERE status = %s GROUP BY user_id, {hour}, type, channel""",
            ["COMPLETED"],
        )
