"""What officers add to a case while they work it: a comment thread and evidence files, on an alert or a SAR.

Both are append-only records: nothing edits or deletes a comment or an
attachment once written (``save`` refuses an update, ``delete`` refuses), so
the thread is a faithful account of the case. Each belongs to exactly one
alert or one SAR (two nullable keys and a check constraint), which keeps one
table per kind, one service and one set of endpoints for both parents.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class AppendOnly(models.Model):
    """A row that is written once. Updating or deleting one through the ORM is a bug, refused loudly."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{type(self).__name__} rows are append-only")

    @property
    def parent(self):
        """The alert or the SAR this record belongs to."""
        return self.alert if self.alert_id else self.sar


def one_parent(prefix: str) -> models.CheckConstraint:
    """Exactly one of ``alert`` and ``sar`` is set, whatever writes the row."""
    return models.CheckConstraint(
        condition=(Q(alert__isnull=False) & Q(sar__isnull=True)) | (Q(alert__isnull=True) & Q(sar__isnull=False)),
        name=f"{prefix}_one_parent",
    )


def thread_indexes(prefix: str) -> list[models.Index]:
    """A case's records in time order, read off an index whichever kind of case it is."""
    return [
        models.Index(fields=["alert", "created_at"], name=f"{prefix}_alert"),
        models.Index(fields=["sar", "created_at"], name=f"{prefix}_sar"),
    ]


class CaseComment(AppendOnly):
    """One comment in the thread of an alert or a SAR.

    ``for_report`` marks a comment meant for the financial intelligence unit:
    only those reach a SAR's exports; every other comment stays internal.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    alert = models.ForeignKey(
        "compliance.Alert", null=True, blank=True, on_delete=models.CASCADE, related_name="comments"
    )
    sar = models.ForeignKey("compliance.SAR", null=True, blank=True, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    for_report = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["created_at", "id"]
        verbose_name = "case comment"
        indexes = thread_indexes("case_comment")
        constraints = [
            one_parent("case_comment"),
            models.CheckConstraint(condition=~Q(text=""), name="case_comment_not_empty"),
        ]

    def __str__(self):
        return f"comment by {self.author_id} on {self.parent}"


class CaseAttachment(AppendOnly):
    """An evidence file on an alert or a SAR, stored through the storage layer as it was received.

    ``storage_name`` is our key (no client-chosen path in it); ``filename`` is
    the original name reduced to safe characters, what people see; ``sha256``
    is the hash of the stored bytes, which are the received ones (uploads'
    ATTACHMENT policy), so a copy can be proved to be the file that was filed.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    alert = models.ForeignKey(
        "compliance.Alert", null=True, blank=True, on_delete=models.CASCADE, related_name="attachments"
    )
    sar = models.ForeignKey(
        "compliance.SAR", null=True, blank=True, on_delete=models.CASCADE, related_name="attachments"
    )
    storage_name = models.CharField(max_length=255, unique=True)
    filename = models.CharField(max_length=120)
    original_filename = models.CharField(max_length=255, blank=True, default="")
    content_type = models.CharField(max_length=64)
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["created_at", "id"]
        verbose_name = "case attachment"
        indexes = thread_indexes("case_attachment")
        constraints = [one_parent("case_attachment")]

    def __str__(self):
        return f"{self.filename} on {self.parent}"
