"""A transactional test's database emptied by deleting the rows it left, not by truncating every table.

After each transactional test (``transaction=True``, ``live_server``, the browser tests) Django flushes the database.
On PostgreSQL that is one ``TRUNCATE`` of all ~150 tables, which gives each table, index and TOAST table new files
and syncs them at commit: 3-4 seconds per test on this machine, whatever the test wrote, hundreds of times a run.
A test leaves rows in a handful of tables, so the flush finds those with one query and deletes their rows. The
foreign keys Django makes on PostgreSQL are deferrable, and with every constraint deferred the deletes need no
order: the rows are all gone when the transaction checks them at its end.

A flush that resets sequences (``reset_sequences=True``) keeps Django's own statement: only ``TRUNCATE ... RESTART
IDENTITY`` gives the sequences back. Installed for the test session only (``conftest.py``); ``manage.py flush``
elsewhere is Django's.
"""

from django.db.backends.postgresql.operations import DatabaseOperations

_truncate = DatabaseOperations.sql_flush


def _sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    if reset_sequences or not tables:
        return _truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    quote = self.quote_name
    probe = " UNION ALL ".join(
        f"SELECT {number} FROM (SELECT 1 FROM {quote(table)} LIMIT 1) AS t{number}"
        for number, table in enumerate(tables)
    )
    with self.connection.cursor() as cursor:
        cursor.execute(probe)
        holding = [tables[row[0]] for row in cursor.fetchall()]
    if not holding:
        return []
    return [
        style.SQL_KEYWORD("SET CONSTRAINTS ALL DEFERRED") + ";",
        *(f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(quote(table))};" for table in holding),
    ]


def delete_rows_instead_of_truncating() -> None:
    DatabaseOperations.sql_flush = _sql_flush
