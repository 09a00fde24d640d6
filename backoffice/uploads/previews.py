"""Previews for the admin pages: a PDF's first page and an image, as bounded PNGs rendered on the server.

A reviewer never opens a raw upload in the browser's PDF viewer: the page is drawn here by PDFium (through
pypdfium2, which ships PDFium without JavaScript or XFA) and only pixels leave. Call these on files that
passed ``upload_store``; they still guard their own inputs (page and pixel bounds).
"""

import io
import threading
from typing import BinaryIO

from PIL import Image, ImageOps

from backoffice.uploads.errors import InvalidFileType
from backoffice.uploads.images import open_image
from backoffice.uploads.policy import FileKind
from backoffice.uploads.sniff import sniff_kind

PREVIEW_MAX_SIDE = 1024
THUMBNAIL_MAX_SIDE = 320
MAX_PIXELS = 50_000_000
# PDFium is not thread-safe (pypdfium2's documentation); one render at a time per process.
_PDFIUM = threading.Lock()


def _png(image: Image.Image) -> bytes:
    if image.mode not in ("RGB", "RGBA", "L", "LA"):
        image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def pdf_preview_png(source: bytes | BinaryIO, *, max_side: int = PREVIEW_MAX_SIDE) -> bytes:
    """The first page of a PDF as PNG bytes, its longer side ``max_side`` pixels (never more)."""
    import pypdfium2 as pdfium

    with _PDFIUM:
        try:
            document = pdfium.PdfDocument(source)
        except pdfium.PdfiumError:
            raise InvalidFileType("The PDF cannot be rendered")
        try:
            if len(document) < 1:
                raise InvalidFileType("The PDF has no pages")
            page = document[0]
            width, height = page.get_size()  # points, 1/72 inch
            scale = max_side / max(width, height, 1.0)
            bitmap = page.render(scale=scale)
            image = bitmap.to_pil()
            image.thumbnail((max_side, max_side))  # rounding never makes it one pixel larger
            return _png(image)
        finally:
            document.close()


def image_thumbnail_png(source: BinaryIO, *, max_side: int = THUMBNAIL_MAX_SIDE, max_pixels: int = MAX_PIXELS) -> bytes:
    """A JPEG or PNG scaled to fit ``max_side`` (upright, without metadata) as PNG bytes."""
    source.seek(0)
    kind = sniff_kind(source.read(16))
    if kind not in (FileKind.JPEG, FileKind.PNG):
        raise InvalidFileType("The file is not a JPEG or PNG image")
    image = open_image(source, kind, max_pixels=max_pixels)
    try:
        image.draft("RGB", (max_side, max_side))  # JPEG decodes straight at a fraction of its size
        upright = ImageOps.exif_transpose(image)
        upright.thumbnail((max_side, max_side))
        return _png(upright)
    except (OSError, ValueError, SyntaxError):
        raise InvalidFileType(f"The {kind.label} image is damaged and cannot be read")
    finally:
        image.close()


def preview_png(source: BinaryIO, *, max_side: int = PREVIEW_MAX_SIDE) -> bytes:
    """The preview of any stored upload, whichever its kind."""
    source.seek(0)
    kind = sniff_kind(source.read(16))
    source.seek(0)
    if kind is FileKind.PDF:
        return pdf_preview_png(source, max_side=max_side)
    return image_thumbnail_png(source, max_side=max_side)
