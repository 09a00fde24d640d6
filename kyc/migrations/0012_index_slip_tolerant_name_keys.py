"""Add the slip-tolerant name keys (``t:`` and ``u:``, name matcher 1.1.0) to the users already indexed.

Matcher 1.1.0 stores more keys per name (names.blocking: anchors of each part's skeleton, so a name with a
slip in every part is still found); the keys of 1.0 are all still among them, so this only adds the missing
rows (``ignore_conflicts`` on the unique (key, user) index) and can be run again safely. Not atomic: each batch
commits on its own, so on a large table screening keeps working while it runs (about 100 µs per distinct name;
``manage.py index_user_names`` rebuilds the same index at any time).
"""

from django.db import migrations

BATCH = 2000


def add_keys(apps, schema_editor):
    from kyc.name_index import stored, user_person
    from names import blocking_keys

    User = apps.get_model("kyc", "PlatformUser")
    Key = apps.get_model("kyc", "UserNameKey")
    seen: dict = {}
    last = None
    while True:
        qs = User.objects.order_by("pk").values_list("pk", "first_name", "last_name", "names", "surname")
        if last is not None:
            qs = qs.filter(pk__gt=last)
        rows = list(qs[:BATCH])
        if not rows:
            return
        keys = []
        for pk, *fields in rows:
            fields = tuple(value or "" for value in fields)
            if fields not in seen:
                person = user_person(first_name=fields[0], last_name=fields[1], names=fields[2], surname=fields[3])
                seen[fields] = sorted(stored(blocking_keys(person)))
            keys.extend(Key(user_id=pk, key=key) for key in seen[fields])
        Key.objects.bulk_create(keys, batch_size=BATCH, ignore_conflicts=True)
        last = rows[-1][0]


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("kyc", "0011_transaction_decisions_and_cash")]

    operations = [migrations.RunPython(add_keys, migrations.RunPython.noop)]
