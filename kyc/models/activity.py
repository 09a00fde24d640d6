from django.db import models

from kyc.models.users import MONEY, PlatformUser


class UserActivityHour(models.Model):
    """A wallet's completed transactions per UTC hour, type and channel: how many, how much, the largest.

    Kept incrementally by the ledger service in the same database transaction as the row that completes
    (``kyc.services.activity.activity_add``), under the wallet's row lock, so it always equals the ledger.
    Record-time screening reads a few of these rows to rule out window rules that cannot reach their
    thresholds before it runs their queries (``compliance.aml.engine.prefilter``).
    """

    id = models.BigAutoField(primary_key=True)
    # no index of its own: the unique key and the sums' index start with the user
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="+", db_index=False)
    hour = models.DateTimeField()
    type = models.CharField(max_length=16)
    channel = models.CharField(max_length=16)
    count = models.PositiveIntegerField()
    total = models.DecimalField(**MONEY)
    max_amount = models.DecimalField(**MONEY)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "hour", "type", "channel"], name="kyc_activity_hour_unique")
        ]
        indexes = [
            # what the prefilter reads of a wallet's hours, in the index (PostgreSQL's INCLUDE; elsewhere the plain
            # key): the hours come from the index alone, not a heap page each. Not on the unique key itself: a
            # database without INCLUDE would then create no unique constraint at all
            models.Index(
                fields=["user", "hour"],
                include=["type", "channel", "count", "total", "max_amount"],
                name="kyc_activity_hour_sums",
            )
        ]

    def __str__(self):
        return f"{self.user_id} {self.hour:%Y-%m-%d %H}h {self.type}/{self.channel}: {self.count}"
