"""``upload_store``: check an uploaded file as it streams, then write it to a storage, all or nothing.

The order of work, and why:

1. The size: from the file's own length when it has one (nothing is read for a file over the cap), and
   counted while reading otherwise, so a 50 MB + 1 byte stream stops after 50 MB + 1 byte.
2. The kind: the first bytes against the signatures, then the name's extension (``sniff.check_kind``).
3. The content, before anything reaches the storage: a PDF streams through the raw-name scanner, is
   then parsed by qpdf, and must end with its end marker and nothing after it (``pdf``); an image is
   decoded in full and, if the policy says so, rebuilt (``images``). Nothing refused is ever written, so no
   storage event or backup ever sees it.
4. The write: the bytes stream to the storage in chunks through a meter that hashes them (sha256 of exactly
   what the storage read), enforces the cap again and the deadline. A failure or a passed deadline deletes
   whatever the storage already holds of this write and raises ``UploadTimeout`` or ``UploadStorageError``
   (``writes``).

Memory: a PDF never sits whole in memory (chunks of 1 MB; Django spools large request bodies to disk; qpdf
reads on demand). An image costs its decoded pixels, bounded by the policy's ``max_pixels``.
"""

import hashlib
import os
import tempfile
from dataclasses import dataclass
from typing import BinaryIO

from django.core.files.storage import Storage, default_storage
from django.core.files.utils import validate_file_name

from backoffice.uploads.errors import FileTooLarge, InvalidFileType, UnsafeContent
from backoffice.uploads.images import check_image
from backoffice.uploads.names import file_extension, safe_filename
from backoffice.uploads.pdf import PdfNameScanner, check_pdf_structure
from backoffice.uploads.policy import IMAGE_KINDS, FileKind, UploadPolicy
from backoffice.uploads.sniff import HEAD_BYTES, check_kind, kind_for_extension
from backoffice.uploads.writes import CHUNK_BYTES, Deadline, IfExists, quiet_delete, write

SPOOL_BYTES = 1024 * 1024
# How long the whole check-and-write may take. The contract leaves it open ("not shown"); two minutes lets
# 50 MB through a slow 4 Mbit/s link to the storage and still answers before a proxy gives up.
DEFAULT_TIMEOUT_SECONDS = 120.0


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


def _too_large(policy: UploadPolicy) -> FileTooLarge:
    return FileTooLarge(f"The file is larger than {policy.max_size_text()} ({policy.max_bytes} bytes)")


def _seekable(file) -> bool:
    try:
        return bool(file.seekable())
    except (AttributeError, OSError, ValueError):
        return False


def _seekable_source(file, policy: UploadPolicy, deadline: Deadline) -> tuple[BinaryIO, bool]:
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


def _read_through(source: BinaryIO, policy: UploadPolicy, deadline: Deadline, scanner: PdfNameScanner | None):
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
    deadline = Deadline(timeout)
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
            if scanner.end_problem:  # a reader ignores what follows the end: a second file riding along
                raise InvalidFileType(scanner.end_problem)
        elif kind in IMAGE_KINDS:
            checked = check_image(source, kind, policy)
            width, height, rebuilt = checked.width, checked.height, checked.rebuilt
        deadline.check()
        if rebuilt is not None:
            payload, size = rebuilt, rebuilt.seek(0, os.SEEK_END)
            rebuilt.seek(0)
        else:
            payload, size = source, received_size
        stored, sha, size = write(
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
    quiet_delete(storage if storage is not None else default_storage, name)
