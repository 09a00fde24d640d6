"""The write half of ``upload_store``: bytes to a storage through a hashing meter, all or nothing.

On disk the file is written under a hidden staging name beside the target and appears under its own name
complete or not at all; on an object store a PUT or multipart upload is atomic and a failure after the object
landed deletes it. Every failure becomes ``UploadTimeout`` or ``UploadStorageError``.

Two uploads of one name at once never both write it: on disk ``os.link`` refuses a taken name; on an object
store, which has no such refusal we can reach, a writer first claims the name in the shared cache
(``_name_claim``) and only the claim's holder may put the name itself.
"""

import hashlib
import logging
import math
import os
import pathlib
import posixpath
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum, StrEnum
from typing import BinaryIO

from django.core.cache import cache
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
# How long a remote write holds its name (``_name_claim``): the upload's deadline plus a margin, since the
# deadline is checked as bytes are read and boto3 may still send the last parts and complete the upload after
# that (each call bounded by AWS_S3_MAX_ATTEMPTS x the connect and read timeouts, about 14 s by default).
# A claim that lapsed mid-write would let a second upload put the same name again.
CLAIM_MARGIN_SECONDS = 120
CLAIM_UNBOUNDED_SECONDS = 60 * 60  # an upload without a deadline: a bound, so a crashed server's claim lapses


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


class _Claim(Enum):
    """Who may write a name on the object store for the length of one write (see ``_name_claim``)."""

    HELD = "held"  # this writer: it alone may put the name itself
    TAKEN = "taken"  # another writer is storing the name right now
    UNKNOWN = "unknown"  # the cache failed: nobody can say, so behave as if it were taken


def _claim_key(storage: Storage, name: str) -> str:
    # Hashed: a storage key may be longer than a cache key should be, or hold characters memcached refuses.
    digest = hashlib.sha256(f"{getattr(storage, 'bucket_name', '')}\0{name}".encode()).hexdigest()
    return f"uploads:name-claim:{digest}"


def _claim_seconds(deadline: Deadline) -> int:
    if deadline.seconds is None:
        return CLAIM_UNBOUNDED_SECONDS
    return math.ceil(deadline.seconds) + CLAIM_MARGIN_SECONDS


def _release(key: str, token: str) -> None:
    try:
        # Only our own claim: one that outlived its timeout may already belong to the next writer.
        if cache.get(key) == token:
            cache.delete(key)
    except Exception:  # the claim then lapses at its timeout; the write itself succeeded or failed already
        logger.warning("could not release the claim %s", key, exc_info=True)


@contextmanager
def _name_claim(storage: Storage, name: str, deadline: Deadline) -> Iterator[_Claim]:
    """Claim ``name`` for this write with one atomic ``cache.add`` (Redis SET NX across servers).

    S3 has no "create only if absent" reachable through django-storages (s3transfer will not pass
    If-None-Match), so two uploads of one name would both see it free and the last PUT would win.
    """
    key, token = _claim_key(storage, name), uuid.uuid4().hex
    try:
        claim = _Claim.HELD if cache.add(key, token, timeout=_claim_seconds(deadline)) else _Claim.TAKEN
    except Exception:
        logger.warning("could not claim %s in the cache; writing as if another upload had it", name, exc_info=True)
        claim = _Claim.UNKNOWN
    try:
        yield claim
    finally:
        if claim is _Claim.HELD:
            _release(key, token)


def _suffixed_name(storage: Storage, name: str) -> str:
    """A free name with a random suffix, never ``name`` itself (which may be mid-write, so not yet visible)."""
    directory, file_name = posixpath.split(name)
    ext = "".join(pathlib.PurePosixPath(file_name).suffixes)
    return _free_name(
        storage, posixpath.join(directory, storage.get_alternative_name(file_name.removesuffix(ext), ext))
    )


def _remote_target(storage: Storage, name: str, if_exists: IfExists, claim: _Claim) -> str:
    """The name to put under REFUSE or RENAME; only the claim's holder may use ``name`` itself."""
    # exists() after the claim, never before: a writer that finished between the two would otherwise be missed.
    if claim is _Claim.HELD and not storage.exists(name):
        return name
    if if_exists is IfExists.RENAME:
        return _suffixed_name(storage, name)
    if claim is _Claim.UNKNOWN and not storage.exists(name):
        # Without the cache, REFUSE cannot tell a free name from one another upload is writing this second:
        # writing could overwrite it, a 409 would claim a file that may not exist. 503: a retry later works.
        raise StorageUnavailable(details={"file": ["The name could not be reserved; nothing was stored"]})
    raise FileAlreadyStored()


def _put(storage: Storage, target: str, content: File, *, overwrite: bool) -> str:
    """One S3 PUT (single or multipart), atomic: a failed one leaves no object.

    A failure after the object landed (the answer timed out) still deletes it, unless it replaced an old one.
    """
    try:
        # save() would choose a new name for a taken one (AWS_S3_FILE_OVERWRITE is False); _save, the hook
        # every storage implements, writes exactly where asked, which is what replacing means.
        return storage._save(target, content) if overwrite else storage.save(target, content)
    except BaseException:
        if not overwrite:
            quiet_delete(storage, target)
        raise


def _write_remote(storage: Storage, name: str, content: File, if_exists: IfExists, deadline: Deadline) -> str:
    """Write to an object store; REFUSE and RENAME hold a claim on ``name`` while they look and write."""
    if if_exists is IfExists.REPLACE:
        return _put(storage, name, content, overwrite=storage.exists(name))
    with _name_claim(storage, name, deadline) as claim:
        return _put(storage, _remote_target(storage, name, if_exists, claim), content, overwrite=False)


def write(storage, name, payload, *, size, content_type, if_exists, deadline) -> tuple[str, str, int]:
    meter = _Meter(payload, size=size, deadline=deadline)
    content = File(meter, name=posixpath.basename(name))
    content.content_type = content_type  # S3Storage sends it as the object's Content-Type
    try:
        if isinstance(storage, FileSystemStorage):
            stored = _write_local(storage, name, content, if_exists)
        else:
            stored = _write_remote(storage, name, content, if_exists, deadline)
    except Exception as exc:
        raise _storage_failure(exc, name)
    return stored, meter.sha256(), size
