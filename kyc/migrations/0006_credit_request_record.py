"""CreditRequest becomes the record of every admin credit (who asked, for whom, how much, why, what it did).

It used to keep only the JSON answer of requests sent with an Idempotency-Key;
those rows are carried over with their amounts and balances as decimals.
"""

import uuid
from decimal import Decimal

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def carry_over(apps, schema_editor):
    Legacy = apps.get_model("kyc", "CreditRequestLegacy")
    CreditRequest = apps.get_model("kyc", "CreditRequest")
    for old in Legacy.objects.select_related("transaction").iterator():
        answer = old.response or {}
        tx = old.transaction
        CreditRequest.objects.create(
            requested_by_id=old.staff_id,
            idempotency_key=old.key,
            fingerprint=old.fingerprint,
            user_id=old.user_id,
            amount=Decimal(str(answer.get("addedAmount") or (tx.amount if tx else "0.01"))),
            reason=(tx.reason if tx else "")[:255],
            previous_balance=Decimal(str(answer["previousBalance"])) if "previousBalance" in answer else None,
            new_balance=Decimal(str(answer["newBalance"])) if "newBalance" in answer else None,
            transaction=tx,
            reference=answer.get("reference") or (tx.reference if tx else ""),
        )


class Migration(migrations.Migration):
    dependencies = [
        ("kyc", "0005_document_keys_per_user"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel("CreditRequest", "CreditRequestLegacy"),
        migrations.CreateModel(
            name="CreditRequest",
            fields=[
                ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ("idempotency_key", models.CharField(blank=True, max_length=255, null=True)),
                ("fingerprint", models.CharField(max_length=64)),
                (
                    "amount",
                    models.DecimalField(
                        decimal_places=2,
                        max_digits=14,
                        validators=[django.core.validators.MinValueValidator(Decimal("0.01"))],
                    ),
                ),
                ("reason", models.CharField(max_length=255)),
                ("previous_balance", models.DecimalField(blank=True, decimal_places=2, max_digits=14, null=True)),
                ("new_balance", models.DecimalField(blank=True, decimal_places=2, max_digits=14, null=True)),
                ("reference", models.CharField(blank=True, default="", max_length=64)),
                ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                (
                    "requested_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "transaction",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="kyc.transaction",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="credit_requests",
                        to="kyc.platformuser",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("idempotency_key__isnull", False)),
                        fields=("requested_by", "idempotency_key"),
                        name="kyc_credit_request_key_unique",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("amount__gt", 0)), name="kyc_credit_request_amount_positive"
                    ),
                ],
            },
        ),
        migrations.RunPython(carry_over, migrations.RunPython.noop),
        migrations.DeleteModel("CreditRequestLegacy"),
    ]
