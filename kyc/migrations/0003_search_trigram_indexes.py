"""Trigram (pg_trgm) GIN indexes for user search on PostgreSQL; nothing on SQLite.

Django's ``icontains`` on PostgreSQL compiles to ``UPPER(col::text) LIKE
UPPER(%s)``, so each index is built on that same expression: the planner
then answers ``search=dlam`` over a million users with a bitmap index scan
per column instead of reading the table.
"""

from django.db import migrations

SEARCH_COLUMNS = ["first_name", "last_name", "names", "surname", "phone_number", "email", "id_number"]


def _index_name(column: str) -> str:
    return f"kyc_user_trgm_{column}"


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for column in SEARCH_COLUMNS:
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS {_index_name(column)} ON kyc_platformuser '
            f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in SEARCH_COLUMNS:
        schema_editor.execute(f"DROP INDEX IF EXISTS {_index_name(column)}")


class Migration(migrations.Migration):
    dependencies = [("kyc", "0002_credit_requests_and_list_index")]

    operations = [migrations.RunPython(create_indexes, drop_indexes)]
