"""One trigram (pg_trgm) GIN index on every searched field of a user at once, for searches of several words;
nothing on SQLite.

Built from ``kyc.filtersets.SEARCH_TEXT``, the expression the search filters on, through Django's own
compiler, so the index's expression is the query's (``UPPER((first_name || ' ' || ...)::text)``) and the
planner can use it. A word matched field by field took one index scan per field, each over the long posting
lists of common names; this takes one.
"""

from django.db import migrations

NAME = "kyc_user_trgm_search_text"


def _index():
    from django.contrib.postgres.indexes import GinIndex, OpClass
    from django.db.models import TextField
    from django.db.models.functions import Cast, Upper

    from kyc.filtersets import SEARCH_TEXT

    return GinIndex(OpClass(Upper(Cast(SEARCH_TEXT, TextField())), name="gin_trgm_ops"), name=NAME)


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.add_index(apps.get_model("kyc", "PlatformUser"), _index())


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP INDEX IF EXISTS {NAME}")


class Migration(migrations.Migration):
    dependencies = [("kyc", "0016_user_id_number_key")]

    operations = [migrations.RunPython(create_index, drop_index)]
