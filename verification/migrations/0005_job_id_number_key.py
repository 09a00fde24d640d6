"""The ID number each check read, as it is compared (``kyc.identity.id_number_key``), for the duplicate search."""

from django.db import migrations, models

BATCH = 500


def fill_keys(apps, schema_editor):
    from kyc.identity import id_number_key

    Job = apps.get_model("verification", "VerificationJob")
    last = None
    while True:
        qs = Job.objects.filter(ocr_result__isnull=False).order_by("pk").only("pk", "ocr_result")
        if last is not None:
            qs = qs.filter(pk__gt=last)
        jobs = list(qs[:BATCH])
        if not jobs:
            return
        for job in jobs:
            fields = (job.ocr_result or {}).get("fields") or {}
            job.id_number_key = id_number_key(fields.get("id_number") or "")
        Job.objects.bulk_update(jobs, ["id_number_key"], batch_size=BATCH)
        last = jobs[-1].pk


class Migration(migrations.Migration):
    dependencies = [("verification", "0004_two_person_approval_against_duplicates")]

    operations = [
        migrations.AddField(
            model_name="verificationjob",
            name="id_number_key",
            field=models.CharField(
                blank=True, db_default="", db_index=True, default="", editable=False, max_length=32
            ),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
