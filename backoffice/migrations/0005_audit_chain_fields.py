"""The audit log becomes a hash chain (docs/audit-chain.md): the columns, empty at first, and the head row."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("backoffice", "0004_service_keys")]

    operations = [
        migrations.AlterField(
            model_name="auditlog",
            name="created_at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now, editable=False),
        ),
        migrations.AddField(
            model_name="auditlog",
            name="sequence",
            field=models.BigIntegerField(editable=False, null=True, unique=True, help_text="The entry's place in the chain."),
        ),
        migrations.AddField(
            model_name="auditlog",
            name="digest",
            field=models.CharField(editable=False, max_length=64, default="", help_text="SHA-256 of the entry's content."),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditlog",
            name="hash",
            field=models.CharField(
                editable=False, max_length=64, default="", help_text="SHA-256 of the previous hash and the digest."
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditlog",
            name="redacted_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.CreateModel(
            name="AuditChainHead",
            fields=[
                ("id", models.PositiveSmallIntegerField(default=1, primary_key=True, serialize=False)),
                ("sequence", models.BigIntegerField(default=0)),
                ("hash", models.CharField(default="0" * 64, max_length=64)),
            ],
            options={
                "constraints": [models.CheckConstraint(condition=models.Q(("id", 1)), name="auditchainhead_single_row")]
            },
        ),
    ]
