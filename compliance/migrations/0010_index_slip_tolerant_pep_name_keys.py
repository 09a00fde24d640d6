"""Add the slip-tolerant name keys (``t:`` and ``u:``, name matcher 1.1.0) to the PEPs already indexed.

A new or renamed user is screened by looking PEPs up by key: without these rows a PEP listed before 1.1.0 is not
found for a user whose name has a slip in every part. The keys of 1.0 are all still among 1.1.0's, so this only
adds rows (``ignore_conflicts`` on the unique (key, pep) index); it can be run again safely. A PEP's keys depend
on its name and aliases only (as ``compliance.selectors.pep.pep_person`` gives them to ``blocking_keys``).
"""

from django.db import migrations

BATCH = 2000


def add_keys(apps, schema_editor):
    from kyc.name_index import stored
    from names import Person, blocking_keys

    PEP = apps.get_model("compliance", "PEP")
    Key = apps.get_model("compliance", "PEPNameKey")
    last = None
    while True:
        qs = PEP.objects.order_by("pk").values_list("pk", "name", "aliases")
        if last is not None:
            qs = qs.filter(pk__gt=last)
        rows = list(qs[:BATCH])
        if not rows:
            return
        keys = [
            Key(pep_id=pk, key=key)
            for pk, name, aliases in rows
            for key in sorted(stored(blocking_keys(Person(name=name, aliases=tuple(aliases or ())))))
        ]
        Key.objects.bulk_create(keys, batch_size=BATCH, ignore_conflicts=True)
        last = rows[-1][0]


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("compliance", "0009_pep_search_trigram_indexes")]

    operations = [migrations.RunPython(add_keys, migrations.RunPython.noop)]
