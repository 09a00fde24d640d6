"""The size cap is enforced before or while reading, never after; sha256 and names come out right."""

import hashlib
import io
import tempfile

import pytest
from django.core.files.uploadedfile import TemporaryUploadedFile

from backoffice.uploads import VENDOR_KYC, FileTooLarge, InvalidFileType, upload_store

from .corpus import handmade_pdf
from .helpers import stored_files

LIMIT = VENDOR_KYC.max_bytes  # 50 MB


class CountingStream(io.RawIOBase):
    """A stream that cannot seek: a PDF header then filler, made as it is read, counting what was read."""

    def __init__(self, total: int, head: bytes = b"%PDF-1.7\n"):
        self.total = total
        self.head = head
        self.bytes_read = 0

    def readable(self):
        return True

    def readinto(self, buffer):
        n = min(len(buffer), self.total - self.bytes_read)
        if n <= 0:
            return 0
        chunk = bytearray(n)
        start = self.bytes_read
        if start < len(self.head):
            piece = self.head[start : start + n]
            chunk[: len(piece)] = piece
        buffer[:n] = chunk
        self.bytes_read += n
        return n


class CountingFile(io.FileIO):
    """A real file on disk that counts the bytes read from it."""

    bytes_read = 0

    def read(self, size=-1):
        data = super().read(size)
        self.bytes_read += len(data)
        return data

    def readinto(self, buffer):
        n = super().readinto(buffer)
        self.bytes_read += n or 0
        return n


def test_a_stream_of_50_mb_and_one_byte_is_abandoned_at_the_first_byte_past_the_cap(local_storage):
    stream = CountingStream(LIMIT + 1 + 5 * 1024 * 1024)
    with pytest.raises(FileTooLarge) as excinfo:
        upload_store(
            file=stream, name="v/1/big.pdf", policy=VENDOR_KYC, storage=local_storage, original_filename="big.pdf"
        )
    assert stream.bytes_read == LIMIT + 1
    assert excinfo.value.message == "File size exceeds limit" and excinfo.value.status == 400
    assert excinfo.value.details == {"file": ["The file is larger than 50 MB (52428800 bytes)"]}
    assert stored_files(local_storage) == []


def test_a_seekable_file_of_50_mb_and_one_byte_is_refused_without_reading_a_byte(local_storage, tmp_path):
    path = tmp_path / "big.pdf"
    with open(path, "wb") as f:
        f.write(b"%PDF-1.7\n")
        f.truncate(LIMIT + 1)  # sparse: no 50 MB on disk
    with CountingFile(path, "rb") as f, pytest.raises(FileTooLarge):
        upload_store(file=f, name="v/1/big.pdf", policy=VENDOR_KYC, storage=local_storage)
    assert f.bytes_read == 0
    assert stored_files(local_storage) == []


def test_an_uploaded_file_over_the_cap_is_refused_by_its_size_alone(local_storage):
    upload = TemporaryUploadedFile("big.pdf", "application/pdf", LIMIT + 1, None)
    upload.write(b"%PDF-1.7\n")  # Django's size says 50 MB + 1; it is never read
    with pytest.raises(FileTooLarge):
        upload_store(file=upload, name="v/1/big.pdf", policy=VENDOR_KYC, storage=local_storage)
    assert upload.tell() == 9
    upload.close()


def test_a_file_of_exactly_50_mb_passes_the_cap(local_storage):
    # the size check comes first; the filler after the header then fails the PDF checks, which read it all
    stream = CountingStream(LIMIT)
    with pytest.raises(InvalidFileType):
        upload_store(
            file=stream, name="v/1/big.pdf", policy=VENDOR_KYC, storage=local_storage, original_filename="a.pdf"
        )
    assert stream.bytes_read == LIMIT


def test_a_stream_that_cannot_seek_is_stored_with_its_sha256(local_storage):
    content = handmade_pdf()
    stream = io.BufferedReader(io.BytesIO(content))
    stream.seekable = lambda: False
    stored = upload_store(
        file=stream, name="v/1/doc.pdf", policy=VENDOR_KYC, storage=local_storage, original_filename="doc.pdf"
    )
    assert stored.sha256 == hashlib.sha256(content).hexdigest() and stored.size == len(content)
    with local_storage.open("v/1/doc.pdf") as f:
        assert f.read() == content


def test_a_large_pdf_is_stored_whole_through_a_temporary_upload(local_storage):
    content = handmade_pdf(objects=(b"<< /Length 4000000 >>\nstream\n" + b"\x00" * 4_000_000 + b"\nendstream",))
    with tempfile.NamedTemporaryFile():
        upload = TemporaryUploadedFile("statement.pdf", "application/pdf", len(content), None)
        upload.write(content)
        upload.seek(0)
        stored = upload_store(file=upload, name="v/1/statement.pdf", policy=VENDOR_KYC, storage=local_storage)
    assert stored.sha256 == hashlib.sha256(content).hexdigest()
    assert stored_files(local_storage) == ["v/1/statement.pdf"]


def test_the_storage_name_must_say_the_kind_of_the_bytes(local_storage):
    with pytest.raises(ValueError):
        upload_store(
            file=io.BytesIO(handmade_pdf()),
            name="v/1/doc.png",
            policy=VENDOR_KYC,
            storage=local_storage,
            original_filename="doc.pdf",
        )


def test_the_storage_name_may_not_climb_out(local_storage):
    from django.core.exceptions import SuspiciousFileOperation

    with pytest.raises(SuspiciousFileOperation):
        upload_store(
            file=io.BytesIO(handmade_pdf()),
            name="v/../../doc.pdf",
            policy=VENDOR_KYC,
            storage=local_storage,
            original_filename="doc.pdf",
        )
