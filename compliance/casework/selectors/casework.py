"""Reads of case work: the thread and the files of an alert or a SAR (the case is passed in)."""

from django.db.models import Model, QuerySet

from compliance.casework.models.casework import CaseAttachment, CaseComment


def _of(model, *, alert: Model | None, sar: Model | None) -> QuerySet:
    return model.objects.filter(alert=alert) if alert is not None else model.objects.filter(sar=sar)


def comments_of(*, alert: Model | None = None, sar: Model | None = None) -> QuerySet[CaseComment]:
    """The thread, oldest first, authors joined (one query however long)."""
    return _of(CaseComment, alert=alert, sar=sar).select_related("author").order_by("created_at", "id")


def attachments_of(*, alert: Model | None = None, sar: Model | None = None) -> QuerySet[CaseAttachment]:
    """The evidence files, oldest first, uploaders joined."""
    return _of(CaseAttachment, alert=alert, sar=sar).select_related("uploaded_by").order_by("created_at", "id")
