"""Index the names of users who existed before the name index, so PEP screening finds them.

Uses the matcher's pure functions (no app model code); users sharing the same names are computed once.
On a large table this takes minutes (about 100 µs per distinct name); ``manage.py index_user_names`` does the
same later at any time.
"""

from django.db import migrations

BATCH = 2000


def index_users(apps, schema_editor):
    from kyc.name_index import name_parts, stored, user_person
    from names import blocking_keys

    User = apps.get_model("kyc", "PlatformUser")
    Key = apps.get_model("kyc", "UserNameKey")
    Part = apps.get_model("kyc", "UserNamePart")
    seen: dict = {}
    last = None
    while True:
        qs = User.objects.order_by("pk").values_list("pk", "first_name", "last_name", "names", "surname")
        if last is not None:
            qs = qs.filter(pk__gt=last)
        rows = list(qs[:BATCH])
        if not rows:
            return
        keys, parts = [], []
        for pk, *fields in rows:
            fields = tuple(value or "" for value in fields)
            if fields not in seen:
                person = user_person(first_name=fields[0], last_name=fields[1], names=fields[2], surname=fields[3])
                seen[fields] = (sorted(stored(blocking_keys(person))), sorted(name_parts(person.name)))
            keys.extend(Key(user_id=pk, key=key) for key in seen[fields][0])
            parts.extend(Part(user_id=pk, part=part) for part in seen[fields][1])
        Key.objects.bulk_create(keys, batch_size=BATCH, ignore_conflicts=True)
        Part.objects.bulk_create(parts, batch_size=BATCH, ignore_conflicts=True)
        last = rows[-1][0]


class Migration(migrations.Migration):
    dependencies = [("kyc", "0009_user_name_index")]

    operations = [migrations.RunPython(index_users, migrations.RunPython.noop)]
