"""The files the upload tests feed in, made here from scratch: PDFs by hand and with pikepdf, images with Pillow."""

import io
import struct
import zlib

import pikepdf
from PIL import Image


def handmade_pdf(*, catalog_extra: bytes = b"", objects: tuple[bytes, ...] = (), trailer_extra: bytes = b"") -> bytes:
    """A minimal valid one-page PDF written byte by byte, with correct offsets.

    ``catalog_extra`` goes inside the catalog dictionary; ``objects`` are more objects numbered from 4.
    """
    bodies = [
        b"<< /Type /Catalog /Pages 2 0 R " + catalog_extra + b" >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>",
        *objects,
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(bodies, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (len(bodies) + 1, trailer_extra, xref)
    )
    return out.getvalue()


def pdf_of_size(size: int) -> bytes:
    """A valid one-page PDF of exactly ``size`` bytes: the padding is a stream of its own, inside the file."""
    pad = 0
    while True:
        content = handmade_pdf(objects=(b"<< /Length %d >>\nstream\n%s\nendstream" % (pad, b"\x00" * pad),))
        if len(content) == size:
            return content
        if len(content) > size and pad == 0:
            raise ValueError(f"no PDF is as small as {size} bytes")
        pad = max(0, pad + size - len(content))


def pikepdf_pdf(*, pages: int = 1, build=None, object_streams: bool = False, encryption=None) -> bytes:
    """A PDF made by pikepdf; ``build(pdf)`` may add to it before it is saved."""
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page(page_size=(300, 200))
    if build:
        build(pdf)
    out = io.BytesIO()
    mode = pikepdf.ObjectStreamMode.generate if object_streams else pikepdf.ObjectStreamMode.disable
    pdf.save(out, object_stream_mode=mode, encryption=encryption or False, compress_streams=True)
    return out.getvalue()


def javascript_action(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
    return pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.Action, S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)"))
    )


def jpeg(*, size=(64, 48), color=(200, 30, 30), exif: Image.Exif | None = None, **options) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="JPEG", exif=exif or Image.Exif(), **options)
    return out.getvalue()


def png(*, size=(64, 48), mode="RGB", color=(30, 200, 30), **options) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, color).save(out, format="PNG", **options)
    return out.getvalue()


def gps_exif(*, orientation: int | None = None) -> Image.Exif:
    """EXIF with a camera model and a GPS position (Mbabane), as a phone writes it."""
    exif = Image.Exif()
    exif[0x0110] = "SecretPhone 9"  # Model
    if orientation:
        exif[0x0112] = orientation
    gps = exif.get_ifd(0x8825)
    gps[1] = "S"
    gps[2] = (26.0, 19.0, 0.0)
    gps[3] = "E"
    gps[4] = (31.0, 8.0, 0.0)
    return exif


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bomb(width: int = 40_000, height: int = 40_000) -> bytes:
    """A PNG whose header claims width x height pixels in a few dozen bytes: a decompression bomb's shape."""
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + _chunk(b"IEND", b"")
    )
