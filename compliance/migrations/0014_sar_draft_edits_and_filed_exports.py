"""Four eyes on a SAR's content, and the report frozen as filed.

``SARDraftEdit``: one row per edit of a draft (who, which fields), so an editor is never the report's reviewer or
approver. Edits made before this migration are only in the audit log (``sar.update`` entries): they become rows,
at their own time, so SARs in progress today get the same protection.

``SARFiledExport`` and ``SAR.filed_sha256``: the HTML, text and goAML exports stored at SUBMITTED, served as filed.
"""

import backoffice.jsondepth
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def edits_from_the_audit_log(apps, schema_editor):
    AuditLog = apps.get_model("backoffice", "AuditLog")
    SAR = apps.get_model("compliance", "SAR")
    SARDraftEdit = apps.get_model("compliance", "SARDraftEdit")
    sars = {str(pk) for pk in SAR.objects.values_list("pk", flat=True)}
    entries = AuditLog.objects.filter(action="sar.update", object_type="sar").order_by("created_at", "id")
    for entry in entries.iterator():
        if entry.object_id not in sars:
            continue
        fields = sorted(name for name in (entry.changes or {}) if name != "sar_id")
        edit = SARDraftEdit.objects.create(sar_id=entry.object_id, author_id=entry.actor_id, fields=fields)
        SARDraftEdit.objects.filter(pk=edit.pk).update(created_at=entry.created_at)


class Migration(migrations.Migration):
    dependencies = [
        ("backoffice", "0001_initial"),
        ("compliance", "0013_held_transaction_queue"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="sar",
            name="filed_sha256",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.CreateModel(
            name="SARDraftEdit",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("fields", backoffice.jsondepth.BoundedJSONField(blank=True, default=list)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "author",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "sar",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="draft_edits", to="compliance.sar"
                    ),
                ),
            ],
            options={
                "verbose_name": "SAR draft edit",
                "ordering": ["sar", "created_at", "id"],
            },
        ),
        migrations.CreateModel(
            name="SARFiledExport",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("format", models.CharField(max_length=8)),
                ("content", models.BinaryField()),
                ("sha256", models.CharField(max_length=64)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "sar",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="filed_exports", to="compliance.sar"
                    ),
                ),
            ],
            options={
                "verbose_name": "SAR filed export",
                "constraints": [models.UniqueConstraint(fields=("sar", "format"), name="sar_filed_export_unique")],
            },
        ),
        migrations.RunPython(edits_from_the_audit_log, migrations.RunPython.noop),
    ]
