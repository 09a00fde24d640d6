"""``upload_store``: check an uploaded file as it streams, then write it to a storage, all or nothing.

The order of work, and why:

1. The size: from the file's own length when it has one (nothing is read for a file over the cap), and
   counted while reading otherwise, so a 50 MB + 1 byte stream stops after 50 MB + 1 byte.
2. The kind: the first bytes against the signatures, then the name's extension (``sniff.check_kind``).
3. The content, before anything reaches the storage: a PDF streams through the raw-name scanner and is
   then parsed by qpdf (``pdf``); an image is decoded in full and, if the policy says so, rebuilt
   (``images``). Nothing refused is ever written, so no storage event or backup ever sees it.
4. The write: the bytes stream to the storage in chunks through a meter that hashes them (sha256 of exactly
   what the storage read), enforces the cap again and the deadline. A failure or a passed deadline deletes
   whatever the storage already holds of this write and raises ``UploadTimeout`` or ``UploadStorageError``.

Memory: a PDF never sits whole in memory (chunks of 1 MB; Django spools large request bodies to disk; qpdf
reads on demand). An image costs its decoded pixels, bounded by the policy's ``max_pixels``.
"""

import hashlib
import logging
import os
import posixpath
import tempfile
import time
import uuid
from dataclasses import dataclass
from enum import StrEnum
from typing import BinaryIO

from django.core.files import File
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.core.files.utils import validate_file_name

from backoffice.errors import DomainError
from backoffice.uploads.errors import (
    FileAlreadyStored,
    FileTooLarge,
    UnsafeContent,
    UploadStorageError,
    UploadTimeout,
)
from backoffice.uploads.images import check_image
from backoffice.uploads.names import file_extension, safe_filename
from backoffice.uploads.pdf import PdfNameScanner, check_pdf_structure
from backoffice.uploads.policy import IMAGE_KINDS, FileKind, UploadPolicy
from backoffice.uploads.sniff import HEAD_BYTES, check_kind, kind_for_extension

logger = logging.getLogger("backoffice.uploads")

CHUNK_BYTES = 1024 * 1024
SPOOL_BYTES = 1024 * 1024
# How long the whole check-and-write may take. The contract leaves it open ("not shown"); two minutes lets
# 50 MB through a slow 4 Mbit/s link to the storage and still answers before a proxy gives up.
DEFAULT_TIMEOUT_SECONDS = 120.0


class IfExists(StrEnum):
    """What to do when the target name is already taken in the storage."""

    REFUSE = "refuse"  # 409 FILE_EXISTS; the existing file is untouched
    RENAME = "rename"  # store under the storage's next free name (a random suffix) and return that name
    REPLACE = "replace"  # overwrite, atomically where the storage allows (local rename, one S3 PUT)


@dataclass(frozen=True)
class StoredUpload:
    """What was stored. ``size`` and ``sha256`` describe the stored bytes; ``received_*`` the uploaded ones.

    ``sanitised`` is True when the stored bytes are a rebuild (an image re-encoded without metadata), so they
    differ from what was received; compare ``received_sha256`` to find the same file uploaded twice.
    """

    name: str
    size: int
    sha256: str
    content_type: str
    kind: FileKind
    sanitised: bool
    original_filename: str
    safe_filename: str
    received_size: int
    received_sha256: str
    pages: int | None = None
    width: int | None = None
    height: int | None = None


class _Deadline:
    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self._at = time.monotonic() + seconds if seconds is not None else None

    def check(self) -> None:
        if self._at is not None and time.monotonic() > self._at:
            raise UploadTimeout(details={"file": [f"The upload did not finish within {self.seconds:g} seconds"]})


def _too_large(policy: UploadPolicy) -> FileTooLarge:
    return FileTooLarge(f"The file is larger than {policy.max_size_text()} ({policy.max_bytes} bytes)")


def _seekable(file) -> bool:
    try:
        return bool(file.seekable())
    except (AttributeError, OSError, ValueError):
        return False


def _seekable_source(file, policy: UploadPolicy, deadline: _Deadline) -> tuple[BinaryIO, bool]:
    """A seekable view of the upload at position 0, within the cap; (file, whether we made it and must close it).

    A file that can seek tells its length without being read; one that cannot is copied to a spooled
    temporary file (memory up to 1 MB, then disk), counting, and abandoned at the first byte past the cap.
    """
    declared = getattr(file, "size", None)
    if isinstance(declared, int) and declared > policy.max_bytes:
        raise _too_large(policy)
    if _seekable(file):
        file.seek(0, os.SEEK_END)
        length = file.tell()
        file.seek(0)
        if length > policy.max_bytes:
            raise _too_large(policy)
        return file, False
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)
    try:
        copied = 0
        while True:
            deadline.check()
            data = file.read(min(CHUNK_BYTES, policy.max_bytes + 1 - copied))
            if not data:
                break
            copied += len(data)
            if copied > policy.max_bytes:
                raise _too_large(policy)
            spool.write(data)
    except BaseException:
        spool.close()
        raise
    spool.seek(0)
    return spool, True


def _read_through(source: BinaryIO, policy: UploadPolicy, deadline: _Deadline, scanner: PdfNameScanner | None):
    """One pass over the received bytes: their size, and the PDF name scan or (for images) their sha256.

    A PDF is stored as received, so its sha256 is taken once, by the meter, as the storage reads it.
    """
    digest = hashlib.sha256() if scanner is None else None
    size = 0
    source.seek(0)
    while data := source.read(CHUNK_BYTES):
        deadline.check()
        size += len(data)
        if size > policy.max_bytes:  # the file grew since its length was taken
            raise _too_large(policy)
        if scanner is not None:
            scanner.feed(data)
        else:
            digest.update(data)
    if scanner is not None:
        scanner.close()
    source.seek(0)
    return size, digest.hexdigest() if digest is not None else None


class _Meter:
    """The payload as the storage reads it: hashes each byte once, in order, however often it seeks back.

    boto3 may read a small body twice (checksum, then send) and seeks for the length; the hash follows the
    furthest contiguous position read, so it is the sha256 of the whole payload once everything was read.
    """

    def __init__(self, payload: BinaryIO, *, size: int, deadline: _Deadline):
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


def _storage_failure(exc: Exception, name: str) -> DomainError:
    if isinstance(exc, DomainError):
        return exc
    if _is_timeout(exc):
        logger.warning("upload to %s timed out: %r", name, exc)
        return UploadTimeout(details={"file": ["The storage did not answer in time"]})
    logger.exception("upload to %s failed", name)
    return UploadStorageError(details={"file": ["The storage refused the file"]})


def _free_name(storage: Storage, name: str) -> str:
    # The base class's search for a free name (random suffixes), whatever the storage's own overwrite setting.
    return Storage.get_available_name(storage, name)


def _quiet_delete(storage: Storage, name: str) -> None:
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
        _quiet_delete(storage, staging)
        if staged != staging:
            _quiet_delete(storage, staged)


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
            _quiet_delete(storage, target)
        raise


def _write(storage, name, payload, *, size, content_type, if_exists, deadline) -> tuple[str, str, int]:
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


def _check_target_name(name: str, kind: FileKind) -> None:
    validate_file_name(name, allow_relative_path=True)  # no absolute path, no ".." component
    if kind_for_extension(file_extension(name)) is not kind:
        # the download view and S3 derive Content-Type from the name: it must say what the bytes are
        raise ValueError(f"storage name {name!r} must end in {' or '.join(kind.extensions)} for a {kind.label}")


def upload_store(
    *,
    file,
    name: str,
    policy: UploadPolicy,
    storage: Storage | None = None,
    if_exists: IfExists = IfExists.REFUSE,
    original_filename: str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT_SECONDS,
) -> StoredUpload:
    """Check ``file`` against ``policy`` and store it as ``name``; nothing is stored unless every check passes.

    ``file`` is a Django ``UploadedFile`` or any binary file object (seekable or not). ``name`` is the full
    storage key, built by the caller from ``safe_filename(original)`` and ending in an extension of the
    file's kind. ``original_filename`` defaults to ``file.name``. Raises ``InvalidFileType``,
    ``FileTooLarge``, ``UnsafeContent`` (400), ``FileAlreadyStored`` (409), ``UploadTimeout`` or
    ``UploadStorageError`` (500). A storage failure leaves nothing behind under ``name``.
    """
    storage = storage if storage is not None else default_storage
    if original_filename is None:
        raw_name = getattr(file, "name", None)  # a str, a Path, a file descriptor number, or missing
        original_filename = str(raw_name) if isinstance(raw_name, str | os.PathLike) else ""
    original = original_filename
    safe = safe_filename(original)
    deadline = _Deadline(timeout)
    source, own_source = _seekable_source(file, policy, deadline)
    rebuilt = None
    try:
        kind = check_kind(source.read(HEAD_BYTES), safe, policy)
        source.seek(0)
        _check_target_name(name, kind)
        scanner = PdfNameScanner() if kind is FileKind.PDF else None
        received_size, received_sha = _read_through(source, policy, deadline, scanner)
        pages = width = height = None
        if scanner is not None:
            if scanner.reasons:
                raise UnsafeContent(next(iter(scanner.reasons)))
            pages = check_pdf_structure(source, policy)
        elif kind in IMAGE_KINDS:
            checked = check_image(source, kind, policy)
            width, height, rebuilt = checked.width, checked.height, checked.rebuilt
        deadline.check()
        if rebuilt is not None:
            payload, size = rebuilt, rebuilt.seek(0, os.SEEK_END)
            rebuilt.seek(0)
        else:
            payload, size = source, received_size
        stored, sha, size = _write(
            storage,
            name,
            payload,
            size=size,
            content_type=kind.content_type,
            if_exists=if_exists,
            deadline=deadline,
        )
    finally:
        if rebuilt is not None:
            rebuilt.close()
        if own_source:
            source.close()
    return StoredUpload(
        name=stored,
        size=size,
        sha256=sha,
        content_type=kind.content_type,
        kind=kind,
        sanitised=rebuilt is not None,
        original_filename=original,
        safe_filename=safe,
        received_size=received_size,
        received_sha256=received_sha or sha,
        pages=pages,
        width=width,
        height=height,
    )


def upload_discard(*, name: str, storage: Storage | None = None) -> None:
    """Delete a stored upload if it is there, logging rather than raising a failure.

    For callers whose database write fails after ``upload_store`` succeeded: store, then save the record,
    and on the record's failure discard the file, so neither exists without the other.
    """
    _quiet_delete(storage if storage is not None else default_storage, name)
