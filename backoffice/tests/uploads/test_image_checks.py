"""Images are decoded in full, bounded in pixels, and (where the policy says) stored rebuilt without metadata."""

import hashlib
import io
from dataclasses import replace

import pytest
from PIL import Image

from backoffice.uploads import ATTACHMENT, IDENTITY_IMAGE, VENDOR_KYC, InvalidFileType, UnsafeContent

from .corpus import gps_exif, jpeg, png, png_bomb
from .helpers import stored_files


def stored_image(storage, stored) -> tuple[bytes, Image.Image]:
    with storage.open(stored.name) as f:
        data = f.read()
    image = Image.open(io.BytesIO(data))
    image.load()
    return data, image


def test_a_jpeg_with_gps_exif_is_stored_without_any_metadata(store, local_storage):
    content = jpeg(exif=gps_exif(), comment=b"taken at home")
    assert Image.open(io.BytesIO(content)).getexif().get_ifd(0x8825)  # the premise: the upload carries GPS
    stored = store(content, "id-front.jpg", IDENTITY_IMAGE, prefix="verification/jobs/1/")
    data, image = stored_image(local_storage, stored)
    assert stored.sanitised is True and stored.kind == "jpeg" and stored.content_type == "image/jpeg"
    assert len(image.getexif()) == 0
    assert not {"exif", "xmp", "comment"} & set(image.info)
    assert b"Exif" not in data and b"SecretPhone" not in data and b"taken at home" not in data
    assert stored.sha256 == hashlib.sha256(data).hexdigest() and stored.size == len(data)
    assert stored.received_sha256 == hashlib.sha256(content).hexdigest() != stored.sha256
    assert image.size == (64, 48) and (stored.width, stored.height) == (64, 48)


@pytest.mark.parametrize(
    ("content", "filename"),
    [
        (jpeg(dpi=(300, 300)), "scan.jpg"),  # JFIF density, an empty EXIF block
        (jpeg(icc_profile=b"\x00" * 128 + b"acsp" + b"\x00" * 128, progressive=True), "scan.jpeg"),
        (png(dpi=(300, 300)), "scan.png"),  # pHYs
        (png(mode="RGBA", color=(1, 2, 3, 4)), "scan.png"),
        (png(mode="P"), "scan.png"),  # PLTE
    ],
)
def test_an_image_with_nothing_to_strip_is_stored_as_received(store, local_storage, content, filename):
    stored = store(content, filename)
    with local_storage.open(stored.name) as f:
        assert f.read() == content
    assert stored.sanitised is False
    assert stored.size == stored.received_size == len(content)
    assert stored.sha256 == stored.received_sha256 == hashlib.sha256(content).hexdigest()


def _png_with_chunk(chunk_type: bytes, data: bytes) -> bytes:
    import struct
    import zlib

    content = png()
    chunk = struct.pack(">I", len(data)) + chunk_type + data + struct.pack(">I", zlib.crc32(chunk_type + data))
    iend = content.rindex(b"IEND") - 4
    return content[:iend] + chunk + content[iend:]


@pytest.mark.parametrize(
    "content",
    [
        jpeg(exif=gps_exif()),
        jpeg(comment=b"scanned at the branch"),
        jpeg() + b"<html>after the end of the image</html>",
        _png_with_chunk(b"tIME", b"\x07\xea\x0b\x15\x0a\x00\x00"),
        _png_with_chunk(b"eXIf", gps_exif().tobytes().removeprefix(b"Exif\x00\x00")),
        png() + b"trailing",
    ],
    ids=["exif", "comment", "jpeg-trailer", "png-time", "png-exif", "png-trailer"],
)
def test_an_image_with_anything_beside_its_pixels_is_rebuilt(store, local_storage, content):
    filename = "photo.png" if content.startswith(b"\x89PNG") else "photo.jpg"
    stored = store(content, filename)
    data, _ = stored_image(local_storage, stored)
    assert stored.sanitised is True and data != content
    assert stored.received_sha256 == hashlib.sha256(content).hexdigest() != stored.sha256
    assert b"after the end" not in data and b"trailing" not in data and b"scanned at" not in data


def test_the_exif_orientation_is_applied_to_the_pixels_before_it_is_dropped(store, local_storage):
    content = jpeg(size=(80, 20), exif=gps_exif(orientation=6))  # 6: the camera was turned a quarter
    stored = store(content, "selfie.jpeg", IDENTITY_IMAGE)
    _, image = stored_image(local_storage, stored)
    assert image.size == (20, 80) and (stored.width, stored.height) == (20, 80)
    assert 0x0112 not in image.getexif()


def test_a_png_keeps_its_pixels_and_transparency_and_loses_its_text_chunks(store, local_storage):
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Location", "-26.3, 31.1")
    content = png(mode="RGBA", color=(10, 20, 30, 40), pnginfo=info)
    stored = store(content, "proof.png")
    data, image = stored_image(local_storage, stored)
    assert b"Location" not in data and "Location" not in image.info
    assert image.mode == "RGBA" and image.getpixel((5, 5)) == (10, 20, 30, 40)


def test_an_icc_profile_and_dpi_survive_the_rebuild(store, local_storage):
    from PIL import ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    stored = store(jpeg(icc_profile=icc, dpi=(300, 300)), "scan.jpg")
    _, image = stored_image(local_storage, stored)
    assert image.info.get("icc_profile") == icc
    assert tuple(round(v) for v in image.info["dpi"]) == (300, 300)


def test_attachments_keep_the_received_bytes_after_a_full_decode(store, local_storage):
    content = jpeg(exif=gps_exif())
    stored = store(content, "evidence.jpg", ATTACHMENT, prefix="compliance/alerts/3/")
    with local_storage.open(stored.name) as f:
        assert f.read() == content
    assert stored.sanitised is False and stored.sha256 == stored.received_sha256


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")  # our own limit is the one that speaks
@pytest.mark.parametrize(
    ("width", "height", "reason"),
    [
        (10_000, 10_000, "The image is 10000 x 10000 pixels; the limit is 50 megapixels"),
        (60_000, 60_000, "The image has too many pixels (the limit is 50 megapixels)"),  # past Pillow's own guard
    ],
)
def test_a_decompression_bomb_is_refused_before_it_is_decoded(store, local_storage, width, height, reason):
    with pytest.raises(UnsafeContent) as excinfo:
        store(png_bomb(width, height), "bomb.png")
    assert excinfo.value.reason == reason
    assert stored_files(local_storage) == []


def test_the_pixel_limit_is_the_policys(store, local_storage):
    tight = replace(VENDOR_KYC, max_pixels=1000)
    with pytest.raises(UnsafeContent):
        store(png(size=(40, 30)), "small.png", tight)
    assert store(png(size=(20, 30)), "small.png", tight).width == 20


@pytest.mark.parametrize("policy", [VENDOR_KYC, ATTACHMENT])
def test_a_truncated_jpeg_is_refused_as_damaged(store, local_storage, policy):
    content = jpeg(size=(400, 300))
    with pytest.raises(InvalidFileType) as excinfo:
        store(content[: len(content) // 2], "cut.jpg", policy)
    assert excinfo.value.reason == "The JPEG image is damaged or truncated"
    assert stored_files(local_storage) == []


def test_a_png_signature_followed_by_garbage_is_refused(store, local_storage):
    with pytest.raises(InvalidFileType) as excinfo:
        store(b"\x89PNG\r\n\x1a\n" + b"garbage" * 20, "fake.png")
    assert excinfo.value.reason == "The PNG image is damaged and cannot be read"
