"""Images: decoded in full with Pillow (only the declared format), bounded in pixels, rebuilt without metadata.

Re-encoding needs the decoded pixels in memory, so an image costs width x height x (1-4) bytes while it is
checked, bounded by the policy's ``max_pixels`` (50 MP: at most 200 MB for RGBA, 150 MB for RGB), not by
its file size. The encoded bytes are read from the spooled upload on disk and the new encoding goes to a
spooled temporary file, so neither sits whole in memory twice.
"""

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

    The rebuild applies the EXIF orientation to the pixels (so the picture stands as the camera meant without
    the tag) and writes the same format with nothing but pixels, ICC profile and DPI.
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
        if not policy.reencode_images:
            return CheckedImage(width=width, height=height, rebuilt=None)
        return CheckedImage(width=width, height=height, rebuilt=_rebuild(image, upright, kind))
    finally:
        image.close()
        source.seek(0)


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
