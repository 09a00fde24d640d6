"""A user's identity documents (ID front and back, selfie), kept through Django's storage API."""

import datetime as dt
import uuid

from django.core.files.base import File
from django.db import transaction

from backoffice.services import model_clean
from backoffice.uploads import IDENTITY_IMAGE, file_extension, upload_discard, upload_store
from kyc.models import KycDocument, PlatformUser


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
    model_clean(document, exclude=["file"])
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


@transaction.atomic
def user_document_upload(*, user: PlatformUser, type: str, file, filename: str = "") -> KycDocument:
    """Check an uploaded identity image (JPEG or PNG by its bytes, at most 10 MB, rebuilt without its metadata:
    no EXIF location kept) and store it as the user's document of ``type``.

    The key is random per user and ends in the extension the client gave, which must agree with the bytes
    (``backoffice.uploads``). Raises the uploads' 400s (type, size, content) and 500s (storage); a row that
    cannot be written removes the stored file.
    """
    original = filename or getattr(file, "name", "") or ""
    extension = file_extension(original)
    name = f"kyc/{user.pk}/{uuid.uuid4().hex}{extension}"
    stored = upload_store(file=file, name=name, policy=IDENTITY_IMAGE, original_filename=original)
    document = KycDocument(user=user, type=type, content_type=stored.content_type, size=stored.size)
    document.file.name = stored.name
    try:
        model_clean(document, exclude=["file"])
        document.save()
    except Exception:
        upload_discard(name=stored.name)
        raise
    return document
