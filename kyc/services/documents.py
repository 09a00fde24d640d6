"""A user's identity documents (ID front and back, selfie), kept through Django's storage API."""

import datetime as dt

from django.core.files.base import File
from django.db import transaction

from kyc.models import KycDocument, PlatformUser
from kyc.services.ledger import full_clean


@transaction.atomic
def user_document_store(
    *,
    user: PlatformUser,
    type: str,
    content: File,
    filename: str,
    content_type: str,
    uploaded_at: dt.datetime | None = None,
) -> KycDocument:
    """Store one document of ``type``; the key is random per user (``kyc.models.document_path``).

    ``uploaded_at`` is for loaders that replay history (the demo data); it defaults to now.
    """
    document = KycDocument(user=user, type=type, content_type=content_type, size=content.size or 0)
    full_clean(document, exclude=["file"])
    document.file.save(filename, content, save=False)
    # the file is written before the row: if the row fails, remove the file so nothing is orphaned
    try:
        document.save()
    except Exception:
        document.file.storage.delete(document.file.name)
        raise
    if uploaded_at is not None:
        KycDocument.objects.filter(pk=document.pk).update(uploaded_at=uploaded_at)
        document.uploaded_at = uploaded_at
    return document
