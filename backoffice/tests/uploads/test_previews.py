"""Previews are PNG pixels, bounded in size, drawn on the server."""

import io

import pytest
from PIL import Image

from backoffice.uploads import InvalidFileType, image_thumbnail_png, pdf_preview_png, preview_png

from .corpus import gps_exif, handmade_pdf, jpeg, pikepdf_pdf


def as_image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def black_box_pdf() -> bytes:
    """A 200 x 100 point page with its left half painted black."""
    content = b"0 0 0 rg 0 0 100 100 re f"
    return handmade_pdf(objects=(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),)).replace(
        b"/MediaBox [0 0 200 100] >>", b"/MediaBox [0 0 200 100] /Contents 4 0 R >>"
    )


def test_the_first_page_of_a_pdf_is_rendered_within_the_bound():
    image = as_image(pdf_preview_png(black_box_pdf(), max_side=400))
    assert image.size == (400, 200)
    assert image.convert("L").getpixel((50, 100)) < 10  # the painted half is black
    assert image.convert("L").getpixel((350, 100)) > 245  # the rest is white paper


def test_a_huge_page_is_still_bounded():
    def giant(pdf):
        pdf.pages[0].MediaBox = [0, 0, 14400, 14400]  # 200 inches square, PDF's largest

    assert max(as_image(pdf_preview_png(pikepdf_pdf(build=giant))).size) == 1024


def test_preview_reads_a_file_object_too():
    assert as_image(preview_png(io.BytesIO(black_box_pdf()), max_side=100)).size == (100, 50)


def test_an_image_thumbnail_is_upright_and_bounded():
    thumb = as_image(image_thumbnail_png(io.BytesIO(jpeg(size=(2000, 500), exif=gps_exif(orientation=6)))))
    assert thumb.size == (80, 320)
    assert "exif" not in thumb.info


def test_a_file_that_is_not_a_pdf_cannot_be_rendered():
    with pytest.raises(InvalidFileType):
        pdf_preview_png(b"%PDF-1.7\nnot really")
    with pytest.raises(InvalidFileType):
        image_thumbnail_png(io.BytesIO(b"GIF89a...."))
