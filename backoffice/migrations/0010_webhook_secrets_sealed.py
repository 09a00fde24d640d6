"""Webhook signing secrets were stored as they are sent; they are sealed now (backoffice.sealing), existing rows
included, so no plaintext secret stays in the table."""

from django.db import migrations, models

from backoffice import sealing

PURPOSE = "webhook-secret"


def seal_existing(apps, schema_editor):
    endpoints = apps.get_model("backoffice", "WebhookEndpoint")
    for endpoint in endpoints.objects.all().only("id", "secret_sealed", "previous_secret_sealed"):
        fields = {}
        for name in ("secret_sealed", "previous_secret_sealed"):
            value = getattr(endpoint, name)
            if value and not value.startswith(sealing.PREFIX):
                fields[name] = sealing.seal(value, purpose=PURPOSE)
        if fields:
            endpoints.objects.filter(pk=endpoint.pk).update(**fields)


def open_existing(apps, schema_editor):
    endpoints = apps.get_model("backoffice", "WebhookEndpoint")
    for endpoint in endpoints.objects.all().only("id", "secret_sealed", "previous_secret_sealed"):
        fields = {
            name: sealing.unseal(getattr(endpoint, name), purpose=PURPOSE)
            for name in ("secret_sealed", "previous_secret_sealed")
            if getattr(endpoint, name).startswith(sealing.PREFIX)
        }
        if fields:
            endpoints.objects.filter(pk=endpoint.pk).update(**fields)


class Migration(migrations.Migration):
    dependencies = [
        ("backoffice", "0009_approval_requests"),
    ]

    operations = [
        migrations.RenameField("webhookendpoint", "secret", "secret_sealed"),
        migrations.RenameField("webhookendpoint", "previous_secret", "previous_secret_sealed"),
        migrations.AlterField(
            model_name="webhookendpoint", name="secret_sealed", field=models.TextField(editable=False)
        ),
        migrations.AlterField(
            model_name="webhookendpoint",
            name="previous_secret_sealed",
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.RunPython(seal_existing, open_existing),
    ]
