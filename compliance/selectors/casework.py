"""Reads of case work: the thread and the files of an alert or a SAR, and the reports that cite an alert."""

from django.db.models import QuerySet

from compliance.models import SAR, Alert, CaseAttachment, CaseComment


def _of(model, *, alert: Alert | None, sar: SAR | None) -> QuerySet:
    return model.objects.filter(alert=alert) if alert is not None else model.objects.filter(sar=sar)


def comments_of(*, alert: Alert | None = None, sar: SAR | None = None) -> QuerySet[CaseComment]:
    """The thread, oldest first, authors joined (one query however long)."""
    return _of(CaseComment, alert=alert, sar=sar).select_related("author").order_by("created_at", "id")


def attachments_of(*, alert: Alert | None = None, sar: SAR | None = None) -> QuerySet[CaseAttachment]:
    """The evidence files, oldest first, uploaders joined."""
    return _of(CaseAttachment, alert=alert, sar=sar).select_related("uploaded_by").order_by("created_at", "id")


def sars_citing(*, alert: Alert) -> QuerySet[SAR]:
    """Every report that cites ``alert``, newest first (the alert page's "SAR in progress")."""
    return alert.sars.only("id", "sar_id", "status", "created_at").order_by("-created_at")
