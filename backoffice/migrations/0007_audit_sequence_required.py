"""Every audit entry now has its place in the chain: the sequence is required and positive."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("backoffice", "0006_chain_existing_audit_entries")]

    operations = [
        migrations.AlterField(
            model_name="auditlog",
            name="sequence",
            field=models.BigIntegerField(editable=False, unique=True, help_text="The entry's place in the chain."),
        ),
        migrations.AddConstraint(
            model_name="auditlog",
            constraint=models.CheckConstraint(condition=models.Q(("sequence__gte", 1)), name="auditlog_sequence_positive"),
        ),
    ]
