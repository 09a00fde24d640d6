"""The write half of ``upload_store``: bytes to a storage through a hashing meter, all or nothing.

On disk the file is written under a hidden staging name beside the target and appears under its own name
complete or not at all; on an object store a PUT or multipart upload is atomic and a failure after the object
landed deletes it. Every failure becomes ``UploadTimeout`` or ``UploadStorageError``.
"""

import hashlib
import logging
import os
import posixpath
import time
import uuid
from enum import StrEnum
from typing import BinaryIO

from django.core.files import File
from django.core.files.storage import FileSystemStorage, Storage

from backoffice.errors import DomainError
from backoffice.uploads.errors import (
    FileAlreadyStored,
    StorageUnavailable,
    UploadStorageError,
    UploadTimeout,
    storage_connection_errors,
)

logger = logging.getLogger("backoffice.uploads")

CHUNK_BYTES = 1024 * 1024


class IfExists(StrEnum):
    """What to do when the target name is already taken in the storage."""

    REFUSE = "refuse"  # 409 FILE_EXISTS; the existing file is untouched
    RENAME = "rename"  # store under the storage's next free name (a random suffix) and return that name
    REPLACE = "replace"  # overwrite, atomically where the storage allows (local rename, one S3 PUT)


class Deadline:
    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self._at = time.monotonic() + seconds if seconds is not None else None

    def check(self) -> None:
        if self._at is not None and time.monotonic() > self._at:
            raise UploadTimeout(details={"file": [f"The upload did not finish within {self.seconds:g} seconds"]})


class _Meter:
    """The payload as the storage reads it: hashes each byte once, in order, however often it seeks back.

    boto3 may read a small body twice (checksum, then send) and seeks for the length; the hash follows the
    furthest contiguous position read, so it is the sha256 of the whole payload once everything was read.
    """

    def __init__(self, payload: BinaryIO, *, size: int, deadline: Deadline):
        self._payload = payload
        self.size = size
        self._deadline = deadline
        self._pos = 0
        self._hashed = 0
        self._digest = hashlib.sha256()

    def read(self, n: int | None = -1) -> bytes:
        self._deadline.check()
        data = self._payload.read(CHUNK_BYTES if n is None or n < 0 else n)
        start, self._pos = self._pos, self._pos + len(data)
        if self._pos > self.size:
            raise UploadStorageError(details={"file": ["The file changed while it was being stored"]})
        if start <= self._hashed < self._pos:
            self._digest.update(data[self._hashed - start :])
            self._hashed = self._pos
        return data

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        self._pos = self._payload.seek(offset, whence)
        return self._pos

    def tell(self) -> int:
        return self._pos

    def seekable(self) -> bool:
        return True

    @property
    def closed(self) -> bool:
        return False

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        """The payload belongs to the caller of ``upload_store``; a storage closing its input must not close it."""

    def sha256(self) -> str:
        if self._hashed < self.size:  # a storage that skipped bytes (none does today): hash the rest ourselves
            self._payload.seek(self._hashed)
            while data := self._payload.read(CHUNK_BYTES):
                self._digest.update(data)
                self._hashed += len(data)
        return self._digest.hexdigest()


def _is_timeout(exc: BaseException) -> bool:
    """True for a timeout anywhere in the exception's chain: socket, botocore, or S3's RequestTimeout."""
    from botocore.exceptions import ClientError, ConnectTimeoutError, ReadTimeoutError

    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, TimeoutError | ReadTimeoutError | ConnectTimeoutError):
            return True
        if isinstance(exc, ClientError) and exc.response.get("Error", {}).get("Code") == "RequestTimeout":
            return True
        if "RequestTimeout" in str(exc):  # boto3's S3UploadFailedError keeps only the text of its cause
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _unreachable(exc: BaseException) -> bool:
    """True when the storage could not be reached or did not answer (anywhere in the exception's chain)."""
    errors = storage_connection_errors()
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, errors):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _storage_failure(exc: Exception, name: str) -> DomainError:
    if isinstance(exc, DomainError):
        return exc
    # A storage that is down or frozen (botocore gave up after its timeouts and retries) is an outage: 503, a
    # retry later helps. 500 "Upload timeout" stays for this upload's own deadline and S3's RequestTimeout.
    if _unreachable(exc):
        logger.warning("storage unavailable for %s: %r", name, exc)
        return StorageUnavailable(details={"file": ["The storage did not answer; nothing was kept"]})
    if _is_timeout(exc):
        logger.warning("upload to %s timed out: %r", name, exc)
        return UploadTimeout(details={"file": ["The storage did not answer in time"]})
    logger.exception("upload to %s failed", name)
    return UploadStorageError(details={"file": ["The storage refused the file"]})


def _free_name(storage: Storage, name: str) -> str:
    # The base class's search for a free name (random suffixes), whatever the storage's own overwrite setting.
    return Storage.get_available_name(storage, name)


def quiet_delete(storage: Storage, name: str) -> None:
    try:
        if storage.exists(name):
            storage.delete(name)
    except Exception:  # the original failure is the one to report
        logger.exception("could not delete %s after a failed upload", name)


def _write_local(storage: FileSystemStorage, name: str, content: File, if_exists: IfExists) -> str:
    """Write to a hidden staging file beside the target, then move it into place in one step.

    The target never exists half-written: it appears complete (``os.link``, which refuses an existing name,
    or ``os.replace`` when replacing) or not at all, and the staging file is removed whatever happens.
    """
    if if_exists is IfExists.REFUSE and storage.exists(name):
        raise FileAlreadyStored()
    target = _free_name(storage, name) if if_exists is IfExists.RENAME else name
    staging = staged = posixpath.join(posixpath.dirname(target), f".upload-{uuid.uuid4().hex}.part")
    try:
        staged = storage.save(staging, content)  # the same name unless a storage subclass renames it
        if if_exists is IfExists.REPLACE:
            os.replace(storage.path(staged), storage.path(target))
            return target
        for _ in range(5):
            try:
                os.link(storage.path(staged), storage.path(target))
                return target
            except FileExistsError:  # someone stored the same name since we looked
                if if_exists is IfExists.REFUSE:
                    raise FileAlreadyStored()
                target = _free_name(storage, name)
        raise UploadStorageError(details={"file": ["No free name for the file"]})
    finally:
        quiet_delete(storage, staging)
        if staged != staging:
            quiet_delete(storage, staged)


def _write_remote(storage: Storage, name: str, content: File, if_exists: IfExists) -> str:
    """Write to an object store. An S3 PUT (single or multipart) is atomic: a failed one leaves no object.

    A failure after the object landed (the answer timed out) still deletes it, unless it replaced an old one.
    """
    existed = storage.exists(name)
    if existed and if_exists is IfExists.REFUSE:
        raise FileAlreadyStored()
    target = _free_name(storage, name) if existed and if_exists is IfExists.RENAME else name
    overwrite = existed and if_exists is IfExists.REPLACE
    try:
        # save() would choose a new name for a taken one (AWS_S3_FILE_OVERWRITE is False); _save, the hook
        # every storage implements, writes exactly where asked, which is what replacing means.
        return storage._save(target, content) if overwrite else storage.save(target, content)
    except BaseException:
        if not overwrite:
            quiet_delete(storage, target)
        raise


def write(storage, name, payload, *, size, content_type, if_exists, deadline) -> tuple[str, str, int]:
    meter = _Meter(payload, size=size, deadline=deadline)
    content = File(meter, name=posixpath.basename(name))
    content.content_type = content_type  # S3Storage sends it as the object's Content-Type
    try:
        if isinstance(storage, FileSystemStorage):
            stored = _write_local(storage, name, content, if_exists)
        else:
            stored = _write_remote(storage, name, content, if_exists)
    except Exception as exc:
        raise _storage_failure(exc, name)
    return stored, meter.sha256(), size
