"""Trigram (pg_trgm) GIN indexes for the PEP list's ``search`` and ``/pep/search`` on PostgreSQL; nothing on SQLite.

Django's ``icontains`` compiles to ``UPPER(col::text) LIKE UPPER(%s)`` and the accent-free search reads
``name_key`` with ``contains`` (``LIKE``), so each index is built on that same expression (as kyc's 0003 does for
users): a substring search over 100,000 PEPs is a bitmap index scan, not a read of the table.
"""

from django.db import migrations

UPPER_COLUMNS = ["name", "position", "country"]


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for column in UPPER_COLUMNS:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS compliance_pep_trgm_{column} ON compliance_pep "
            f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS compliance_pep_trgm_name_key ON compliance_pep USING gin (name_key gin_trgm_ops)"
    )


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in [*UPPER_COLUMNS, "name_key"]:
        schema_editor.execute(f"DROP INDEX IF EXISTS compliance_pep_trgm_{column}")


class Migration(migrations.Migration):
    dependencies = [("compliance", "0008_peps_and_screening")]

    operations = [migrations.RunPython(create_indexes, drop_indexes)]
