"""The ID number as it is compared (``kyc.identity.id_number_key``), kept beside it for the duplicate search."""

from django.db import migrations, models

BATCH = 2000


def fill_keys(apps, schema_editor):
    from kyc.identity import id_number_key

    User = apps.get_model("kyc", "PlatformUser")
    last = None
    while True:
        qs = User.objects.exclude(id_number="").order_by("pk").only("pk", "id_number")
        if last is not None:
            qs = qs.filter(pk__gt=last)
        users = list(qs[:BATCH])
        if not users:
            return
        for user in users:
            user.id_number_key = id_number_key(user.id_number)
        User.objects.bulk_update(users, ["id_number_key"], batch_size=BATCH)
        last = users[-1].pk


class Migration(migrations.Migration):
    dependencies = [("kyc", "0015_user_activity_hours")]

    operations = [
        migrations.AddField(
            model_name="platformuser",
            name="id_number_key",
            field=models.CharField(
                blank=True, db_default="", db_index=True, default="", editable=False, max_length=32
            ),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
