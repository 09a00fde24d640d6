"""Private files (ID images, KYC papers) handed out through short-lived links.

Nothing under ``MEDIA_ROOT`` is served publicly. ``signed_file_url`` gives a
link that works for ``FILE_URL_MAX_AGE`` seconds and needs no other
credential: on the local file system it points at ``/api/v1/files/<token>``
(``token`` is the storage name signed with ``SECRET_KEY``), streamed by
``FileDownloadView``; on S3 it is the storage's own presigned URL.
"""

import mimetypes

from django.core import signing
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.urls import reverse

SALT = "backoffice.files"
FILE_URL_MAX_AGE = 15 * 60


def _is_local(storage: Storage) -> bool:
    return isinstance(storage, FileSystemStorage)


def file_token(name: str) -> str:
    return signing.dumps({"n": name}, salt=SALT, compress=True)


def file_name_from_token(token: str, *, max_age: int = FILE_URL_MAX_AGE) -> str | None:
    """The storage name a token was made for, or None when it is forged or expired."""
    try:
        payload = signing.loads(token, salt=SALT, max_age=max_age)
    except signing.BadSignature:  # SignatureExpired is a BadSignature too
        return None
    name = payload.get("n") if isinstance(payload, dict) else None
    return name if isinstance(name, str) and name else None


def signed_file_url(name: str, *, storage: Storage | None = None, request=None) -> str:
    """A link to a stored file that expires; absolute when ``request`` is given."""
    storage = storage or default_storage
    if not name:
        return ""
    if not _is_local(storage):
        # S3Storage signs its URLs (AWS_QUERYSTRING_AUTH) with their own expiry.
        return storage.url(name)
    path = reverse("file-download", kwargs={"token": file_token(name)})
    return request.build_absolute_uri(path) if request is not None else path


def guess_content_type(name: str) -> str:
    return mimetypes.guess_type(name)[0] or "application/octet-stream"
