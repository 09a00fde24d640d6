"""Every job that exists before its status history did gets one row: the status it had when the history began.

Without it the job page's history would be empty for those jobs, as if they had never moved. The row says
what it is (no actor, a note), rather than inventing the moves that were not recorded.
"""

from django.db import migrations

NOTE = "Status when this history began; earlier moves were not recorded"
BATCH = 2000


def start_history(apps, schema_editor):
    Job = apps.get_model("verification", "VerificationJob")
    Event = apps.get_model("verification", "VerificationJobEvent")
    rows = []
    for job_id, status in Job.objects.filter(events__isnull=True).values_list("pk", "status").iterator(BATCH):
        rows.append(Event(job_id=job_id, from_status="", to_status=status, note=NOTE))
        if len(rows) == BATCH:
            Event.objects.bulk_create(rows)
            rows = []
    Event.objects.bulk_create(rows)


def drop_started(apps, schema_editor):
    apps.get_model("verification", "VerificationJobEvent").objects.filter(from_status="", note=NOTE).delete()


class Migration(migrations.Migration):
    dependencies = [("verification", "0002_job_status_history")]

    operations = [migrations.RunPython(start_history, drop_started)]
