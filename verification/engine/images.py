"""Decoding uploaded images safely, and hashing them to find the same picture on two accounts.

Only JPEG and PNG are accepted, recognised by their first bytes rather than a name or a content type. A file
that claims a huge canvas (a decompression bomb: a few kilobytes that decode to gigabytes) is refused before
its pixels are decoded.
"""

import hashlib
import io
import warnings

from PIL import Image, ImageOps

from verification.engine.errors import ImageTooLarge, NotAnImage
from verification.engine.types import ImageHashes

MAX_IMAGE_BYTES = 10 * 1024 * 1024
# 40 megapixels: more than any phone camera's photo (a 108 MP sensor bins to 12 MP), far below a bomb
MAX_IMAGE_PIXELS = 40_000_000

_JPEG = b"\xff\xd8\xff"
_PNG = b"\x89PNG\r\n\x1a\n"


def is_image_bytes(data: bytes) -> bool:
    """Whether the bytes start like a JPEG or a PNG file."""
    return data[:3] == _JPEG or data[:8] == _PNG


def load_image(data: bytes) -> Image.Image:
    """The decoded image, turned upright by its EXIF orientation, in RGB.

    Raises NotAnImage for anything that is not a decodable JPEG or PNG, ImageTooLarge above
    ``MAX_IMAGE_BYTES`` or ``MAX_IMAGE_PIXELS``.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise NotAnImage("The file is not an image: expected the bytes of a JPEG or PNG file.")
    data = bytes(data)
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageTooLarge(f"The image is larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB.")
    if not is_image_bytes(data):
        raise NotAnImage("The file is not a JPEG or PNG image.")
    try:
        with warnings.catch_warnings():
            # Pillow warns between MAX_IMAGE_PIXELS and twice that, and raises above; both are refusals here
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > MAX_IMAGE_PIXELS:
                raise ImageTooLarge(
                    f"The image is {width}x{height} pixels; at most {MAX_IMAGE_PIXELS // 1_000_000} megapixels "
                    "are accepted."
                )
            if image.format not in ("JPEG", "PNG"):
                raise NotAnImage("The file is not a JPEG or PNG image.")
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageTooLarge("The image has too many pixels to be decoded safely.") from None
    except ImageTooLarge:
        raise
    except NotAnImage:
        raise
    except Exception as exc:  # Pillow raises many types for a truncated or corrupt file
        raise NotAnImage(f"The image could not be decoded: {exc}.") from None
    try:
        image = ImageOps.exif_transpose(image)
    except Exception:  # a broken EXIF block must not lose an otherwise good photo
        pass
    if image.mode != "RGB":
        if image.mode in ("RGBA", "LA", "P") or "transparency" in image.info:
            rgba = image.convert("RGBA")
            background = Image.new("RGB", rgba.size, (255, 255, 255))
            background.paste(rgba, mask=rgba.getchannel("A"))
            image = background
        else:
            image = image.convert("RGB")
    return image


def dhash(image: Image.Image, size: int = 8) -> int:
    """A 64-bit difference hash: each bit says whether a pixel of a 9x8 grey thumbnail is brighter than its right
    neighbour. Re-encoding, resizing and mild colour changes flip few bits; a different picture flips about half."""
    small = image.convert("L").resize((size + 1, size), Image.Resampling.LANCZOS)
    pixels = small.tobytes()
    value = 0
    for row in range(size):
        for col in range(size):
            left = pixels[row * (size + 1) + col]
            right = pixels[row * (size + 1) + col + 1]
            value = (value << 1) | (1 if left > right else 0)
    return value


def image_hashes(data: bytes) -> ImageHashes:
    """The SHA-256 of the bytes and the dhash of the decoded image (raises like ``load_image``)."""
    image = load_image(data)
    return ImageHashes(sha256=hashlib.sha256(data).hexdigest(), dhash=dhash(image))


def hamming(a: int, b: int) -> int:
    """How many bits differ between two hashes."""
    return (a ^ b).bit_count()


def downscale(image: Image.Image, longest_side: int) -> tuple[Image.Image, float]:
    """The image with its longest side at most ``longest_side``, and the factor from the new to the original
    coordinates (1.0 when unchanged)."""
    width, height = image.size
    longest = max(width, height)
    if longest <= longest_side:
        return image, 1.0
    scale = longest_side / longest
    resized = image.resize((max(1, round(width * scale)), max(1, round(height * scale))), Image.Resampling.BILINEAR)
    return resized, longest / longest_side
