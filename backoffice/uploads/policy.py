"""What each use of uploads accepts: the kinds of file, the byte cap, the pixel cap, and whether images are rebuilt."""

from dataclasses import dataclass
from enum import StrEnum

MB = 1024 * 1024


class FileKind(StrEnum):
    """A kind of file we can recognise by its bytes."""

    PDF = "pdf"
    JPEG = "jpeg"
    PNG = "png"

    @property
    def content_type(self) -> str:
        return _CONTENT_TYPES[self]

    @property
    def extensions(self) -> tuple[str, ...]:
        """The name endings (lower case, with the dot) that agree with this kind."""
        return _EXTENSIONS[self]

    @property
    def label(self) -> str:
        return self.value.upper()


_CONTENT_TYPES = {FileKind.PDF: "application/pdf", FileKind.JPEG: "image/jpeg", FileKind.PNG: "image/png"}
_EXTENSIONS = {FileKind.PDF: (".pdf",), FileKind.JPEG: (".jpg", ".jpeg"), FileKind.PNG: (".png",)}
IMAGE_KINDS = frozenset({FileKind.JPEG, FileKind.PNG})


@dataclass(frozen=True)
class UploadPolicy:
    """One caller's rules. ``max_bytes`` is in bytes (``50 * MB`` is 52,428,800).

    ``max_pixels`` bounds the memory an image costs to check (width x height x 3-4 bytes once decoded) and
    is what rejects decompression bombs. ``reencode_images`` decides whether the stored bytes of an image are
    a fresh encoding without metadata (True) or the received bytes after a full decode proved them sound
    (False). ``pdf_max_objects`` bounds the memory the PDF parser spends (about 2 KB per object).
    """

    name: str
    kinds: frozenset[FileKind]
    max_bytes: int
    max_pixels: int = 50_000_000
    reencode_images: bool = True
    pdf_max_objects: int = 100_000

    def __post_init__(self):
        if not self.kinds or self.max_bytes <= 0 or self.max_pixels <= 0:
            raise ValueError(f"upload policy {self.name!r} must accept some kind, some bytes and some pixels")

    def kinds_text(self) -> str:
        """'PDF, JPEG or PNG' in a stable order, for messages."""
        labels = [kind.label for kind in FileKind if kind in self.kinds]
        return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]

    def extensions_text(self) -> str:
        exts = [ext for kind in FileKind if kind in self.kinds for ext in kind.extensions]
        return exts[0] if len(exts) == 1 else ", ".join(exts[:-1]) + " or " + exts[-1]

    def max_size_text(self) -> str:
        return f"{self.max_bytes / MB:g} MB" if self.max_bytes % (MB // 4) == 0 else f"{self.max_bytes} bytes"


ALL_KINDS = frozenset(FileKind)

# Vendor KYC documents (issue 11, the contract's 50 MB): stored images are rebuilt without metadata.
VENDOR_KYC = UploadPolicy(name="vendor KYC document", kinds=ALL_KINDS, max_bytes=50 * MB)

# Evidence on alerts and SARs (issue 12): the contract promises "the url serves the stored bytes unchanged",
# and evidence keeps its integrity (its sha256 is the received file's), so images are fully decoded to prove
# them sound but stored as received.
ATTACHMENT = UploadPolicy(name="attachment", kinds=ALL_KINDS, max_bytes=20 * MB, reencode_images=False)

# Identity images of verification jobs: photographs of people, so location and device data never stay.
IDENTITY_IMAGE = UploadPolicy(name="identity image", kinds=IMAGE_KINDS, max_bytes=10 * MB)
