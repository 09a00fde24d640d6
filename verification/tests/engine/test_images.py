"""Decoding uploads safely, and the hashes that find a reused photo."""

import io
import struct
import zlib

import pytest
from PIL import Image

from verification.engine.errors import ImageTooLarge, NotAnImage
from verification.engine.images import MAX_IMAGE_BYTES, hamming, image_hashes, load_image


def _encode(image: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def test_a_jpeg_decodes_to_rgb(obama):
    image = load_image(obama)
    assert image.mode == "RGB"
    assert image.size == (910, 1137)


def test_a_png_with_transparency_decodes_to_rgb_on_white():
    data = _encode(Image.new("RGBA", (20, 10), (0, 0, 0, 0)), "PNG")
    image = load_image(data)
    assert image.mode == "RGB"
    assert image.getpixel((0, 0)) == (255, 255, 255)


@pytest.mark.parametrize(
    "data",
    [b"", b"%PDF-1.7 not an image", b"GIF89a" + b"\0" * 20, _encode(Image.new("RGB", (4, 4)), "GIF")],
    ids=["empty", "pdf", "gif-header", "gif"],
)
def test_anything_but_jpeg_or_png_is_not_an_image(data):
    with pytest.raises(NotAnImage):
        load_image(data)


def test_a_truncated_jpeg_is_not_an_image(obama):
    with pytest.raises(NotAnImage):
        load_image(obama[: len(obama) // 3])


def test_the_exif_orientation_turns_the_photo_upright():
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    data = _encode(Image.new("RGB", (40, 20), (200, 10, 10)), "JPEG", exif=exif)
    assert load_image(data).size == (20, 40)


def test_more_than_ten_megabytes_is_too_large():
    with pytest.raises(ImageTooLarge):
        load_image(b"\xff\xd8\xff" + b"\0" * MAX_IMAGE_BYTES)


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims a huge canvas (a decompression bomb's header) with a tiny body."""

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def test_a_decompression_bomb_is_refused_before_decoding():
    with pytest.raises(ImageTooLarge):
        load_image(_png_header_only(50_000, 50_000))


def test_a_re_encoded_smaller_copy_has_nearly_the_same_dhash(obama):
    original = image_hashes(obama)
    copy = Image.open(io.BytesIO(obama)).convert("RGB").resize((455, 568))
    reencoded = image_hashes(_encode(copy, "JPEG", quality=60))
    assert reencoded.sha256 != original.sha256
    assert hamming(original.dhash, reencoded.dhash) <= 6


def test_different_photos_have_distant_dhashes(obama, obama2, biden):
    hashes = [image_hashes(data).dhash for data in (obama, obama2, biden)]
    assert hamming(hashes[0], hashes[1]) >= 16
    assert hamming(hashes[0], hashes[2]) >= 16


def test_hamming_counts_differing_bits():
    assert hamming(0b1011, 0b0001) == 2
    assert hamming(2**64 - 1, 0) == 64
