"""Images: decoded in full with Pillow (only the declared format), bounded in pixels, rebuilt without metadata
when they carry any.

Re-encoding needs the decoded pixels in memory, so an image costs width x height x (1-4) bytes while it is
checked, bounded by the policy's ``max_pixels`` (50 MP: at most 200 MB for RGBA, 150 MB for RGB), not by
its file size. The encoded bytes are read from the spooled upload on disk and the new encoding goes to a
spooled temporary file, so neither sits whole in memory twice.
"""

import os
import tempfile
from dataclasses import dataclass
from typing import BinaryIO

from PIL import Image, ImageOps

from backoffice.uploads.errors import InvalidFileType, UnsafeContent
from backoffice.uploads.policy import FileKind, UploadPolicy

_PILLOW_FORMATS = {FileKind.JPEG: "JPEG", FileKind.PNG: "PNG"}
_SPOOL_BYTES = 1024 * 1024
# What survives the rebuild: PNG transparency is pixels, not metadata. ICC profiles are passed on (colour
# fidelity of a scanned document matters to a reviewer; they carry no location or person), DPI too
# (the contract recommends 300 DPI scans). EXIF (GPS, device, time), XMP, comments and text chunks go.
_KEPT_INFO = ("transparency",)
_JPEG_FALLBACK_QUALITY = 95
_ORIENTATION = 0x0112


@dataclass(frozen=True)
class CheckedImage:
    """An image that decoded in full. ``rebuilt`` holds the new encoding (None when the policy keeps bytes)."""

    width: int
    height: int
    rebuilt: BinaryIO | None


class _Borrowed:
    """The caller's file lent to Pillow, which closes the files it reads; this one must stay open."""

    def __init__(self, file: BinaryIO):
        self._file = file

    def read(self, n: int = -1) -> bytes:
        return self._file.read(n)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def close(self) -> None:
        pass


def open_image(source: BinaryIO, kind: FileKind, *, max_pixels: int) -> Image.Image:
    """Open ``source`` as ``kind`` only, refusing more than ``max_pixels`` before a pixel is decoded."""
    source.seek(0)
    try:
        image = Image.open(_Borrowed(source), formats=[_PILLOW_FORMATS[kind]])
    except Image.DecompressionBombError:
        raise UnsafeContent(f"The image has too many pixels (the limit is {max_pixels / 1e6:g} megapixels)")
    except (OSError, SyntaxError, ValueError, EOFError):
        raise InvalidFileType(f"The {kind.label} image is damaged and cannot be read")
    width, height = image.size
    if width * height > max_pixels:
        image.close()
        raise UnsafeContent(f"The image is {width} x {height} pixels; the limit is {max_pixels / 1e6:g} megapixels")
    return image


def check_image(source: BinaryIO, kind: FileKind, policy: UploadPolicy) -> CheckedImage:
    """Decode the whole image (a truncated or corrupt one is refused) and, if the policy says so, rebuild it.

    The rebuild happens only when there is something to remove or to turn (``metadata_found``, an EXIF
    orientation): an image that carries nothing but pixels is stored as received, so its size and sha256 are
    the uploaded file's. The rebuild applies the EXIF orientation to the pixels (so the picture stands as the
    camera meant without the tag) and writes the same format with nothing but pixels, ICC profile and DPI.
    """
    image = open_image(source, kind, max_pixels=policy.max_pixels)
    try:
        try:
            image.load()
            upright = _upright(image) if policy.reencode_images else image
        except Image.DecompressionBombError:
            raise UnsafeContent("The image has too many pixels")
        except (OSError, SyntaxError, ValueError, EOFError, IndexError, KeyError):
            raise InvalidFileType(f"The {kind.label} image is damaged or truncated")
        width, height = upright.size
        if not policy.reencode_images or (upright is image and metadata_found(source, kind, image) is None):
            # nothing to strip and nothing to turn: the received bytes are stored, exact size and sha256
            return CheckedImage(width=width, height=height, rebuilt=None)
        return CheckedImage(width=width, height=height, rebuilt=_rebuild(image, upright, kind))
    finally:
        image.close()
        source.seek(0)


# What a file may carry besides its pixels and still be stored as received: how to draw them (JFIF density,
# ICC profile, Adobe colour transform; PNG palette, transparency, gamma, chromaticities, sRGB intent, ICC
# profile, physical size, significant bits, background colour). Anything else (EXIF, XMP, Photoshop blocks,
# comments, text chunks, timestamps, private chunks, bytes after the image) is a reason to rebuild.
_JPEG_KEPT_SEGMENTS = (("APP0", b"JFIF\x00"), ("APP2", b"ICC_PROFILE\x00"), ("APP14", b"Adobe"))
_PNG_KEPT_CHUNKS = frozenset(
    {b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"gAMA", b"cHRM", b"sRGB", b"iCCP", b"pHYs", b"sBIT", b"bKGD"}
)
_PNG_SIGNATURE_BYTES = 8


def metadata_found(source: BinaryIO, kind: FileKind, image: Image.Image) -> str | None:
    """What in an image file is more than its pixels and how to draw them, or None when nothing is.

    An empty EXIF block (no tag at all) counts as nothing: it names no place, device or time.
    """
    if kind is FileKind.JPEG:
        for marker, data in getattr(image, "applist", []):
            if marker == "APP1" and data.startswith(b"Exif\x00"):
                if len(image.getexif()):
                    return "EXIF"
                continue
            if not any(marker == kept and data.startswith(prefix) for kept, prefix in _JPEG_KEPT_SEGMENTS):
                return "XMP" if data.startswith(b"http://ns.adobe.com/xap/") else f"{marker} segment"
        source.seek(-2, os.SEEK_END)
        if source.read(2) != b"\xff\xd9":
            return "data after the image"
        return None
    return _png_extra_chunk(source)


def _png_extra_chunk(source: BinaryIO) -> str | None:
    """The first PNG chunk (or trailing data) that is not pixels or how to draw them, read from the chunk headers."""
    source.seek(_PNG_SIGNATURE_BYTES)
    while header := source.read(8):
        if len(header) < 8:
            return "data after the image"
        length, chunk_type = int.from_bytes(header[:4], "big"), header[4:]
        if chunk_type not in _PNG_KEPT_CHUNKS:
            return f"{chunk_type.decode('latin-1')} chunk"
        source.seek(length + 4, os.SEEK_CUR)  # the data and its CRC
        if chunk_type == b"IEND":
            return "data after the image" if source.read(1) else None
    return "no end chunk"


def _upright(image: Image.Image) -> Image.Image:
    """The image turned as its EXIF orientation says; the image itself when it needs no turn."""
    if image.getexif().get(_ORIENTATION, 1) in (0, 1):
        return image
    return ImageOps.exif_transpose(image)


def _rebuild(original: Image.Image, upright: Image.Image, kind: FileKind) -> BinaryIO:
    options = {}
    if icc := original.info.get("icc_profile"):
        options["icc_profile"] = icc
    if dpi := original.info.get("dpi"):
        options["dpi"] = tuple(round(float(v)) for v in dpi)
    if kind is FileKind.JPEG:
        turned = upright is not original
        if not turned and original.format == "JPEG":
            # the original quantisation tables: no second generation of JPEG loss
            options.update(quality="keep", subsampling="keep")
        else:
            options["quality"] = _JPEG_FALLBACK_QUALITY
    upright.info = {key: original.info[key] for key in _KEPT_INFO if key in original.info}
    out = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)
    try:
        upright.save(out, format=_PILLOW_FORMATS[kind], **options)
    except (OSError, ValueError) as exc:
        out.close()
        raise InvalidFileType(f"The {kind.label} image cannot be re-encoded ({exc})")
    out.seek(0)
    return out
