"""Synthetic identity cards and selfies, for the tests, the benchmark and the demo data.

A rendered card looks like a national ID photographed flat: about 1000x630 pixels, a portrait on the left and
labelled fields on the right. Three layouts cover the label styles the parser must read:

* ``eswatini``: "Surname", "Forenames", "Personal ID No.", dates as DD.MM.YYYY, sex as M/F, "Date of Expiry";
* ``generic``: "Last name", "First name", "ID No", dates as YYYY-MM-DD, "Gender" MALE/FEMALE, "Citizenship",
  "Valid until";
* ``stacked``: each label on its own line above its value, dates as DD MMM YYYY, "Names", "PIN", "DOB".

Photo defects are applied on request: ``blur`` (Gaussian radius in pixels), ``brightness`` (1.0 unchanged),
``glare`` (a saturated white patch, as a flash on a laminated card makes).
"""

import io
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageEnhance, ImageFilter, ImageFont, ImageOps

from verification.engine.mrz import make_td3

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
CARD_SIZE = (1000, 630)
LAYOUTS = ("eswatini", "generic", "stacked")
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def _font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    path = FONT_DIR / ("DejaVuSansMono.ttf" if mono else "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:  # no DejaVu on this machine: Pillow's own font (smaller, still legible)
        return ImageFont.load_default(size=size)


def _decode(data: bytes) -> Image.Image:
    return ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")


def _encode(image: Image.Image, fmt: str) -> bytes:
    out = io.BytesIO()
    if fmt == "JPEG":
        image.save(out, "JPEG", quality=92)
    else:
        image.save(out, "PNG", optimize=False)
    return out.getvalue()


def _defects(image: Image.Image, *, blur: float, brightness: float, glare: bool) -> Image.Image:
    if glare:
        overlay = Image.new("L", image.size, 0)
        width, height = image.size
        ImageDraw.Draw(overlay).ellipse(
            (int(width * 0.45), int(height * 0.05), int(width * 0.95), int(height * 0.60)), fill=255
        )
        overlay = overlay.filter(ImageFilter.GaussianBlur(6))
        image = Image.composite(Image.new("RGB", image.size, (255, 255, 255)), image, overlay)
    if brightness != 1.0:
        image = ImageEnhance.Brightness(image).enhance(brightness)
    if blur > 0:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    return image


def format_date(value: date, layout: str) -> str:
    """A date as the layout prints it."""
    if layout == "eswatini":
        return value.strftime("%d.%m.%Y")
    if layout == "generic":
        return value.isoformat()
    return f"{value.day:02d} {_MONTHS[value.month - 1]} {value.year}"


def _rows(
    layout: str,
    *,
    first_name: str,
    last_name: str,
    id_number: str,
    date_of_birth: date,
    sex: str,
    nationality: str,
    expiry_date: date | None,
) -> list[tuple[str, str]]:
    long_sex = {"M": "MALE", "F": "FEMALE"}.get(sex.upper()[:1], sex.upper())
    if layout == "eswatini":
        rows = [
            ("Surname", last_name.upper()),
            ("Forenames", first_name.upper()),
            ("Personal ID No.", id_number),
            ("Date of Birth", format_date(date_of_birth, layout)),
            ("Sex", long_sex[:1]),
            ("Nationality", nationality.upper()),
        ]
        if expiry_date:
            rows.append(("Date of Expiry", format_date(expiry_date, layout)))
    elif layout == "generic":
        rows = [
            ("Last name", last_name),
            ("First name", first_name),
            ("ID No", id_number),
            ("Date of Birth", format_date(date_of_birth, layout)),
            ("Gender", long_sex),
            ("Citizenship", nationality.title()),
        ]
        if expiry_date:
            rows.append(("Valid until", format_date(expiry_date, layout)))
    elif layout == "stacked":
        rows = [
            ("SURNAME", last_name.upper()),
            ("NAMES", first_name.upper()),
            ("PIN", id_number),
            ("DOB", format_date(date_of_birth, layout)),
            ("SEX", long_sex),
            ("NATIONALITY", nationality.upper()),
        ]
        if expiry_date:
            rows.append(("EXPIRY", format_date(expiry_date, layout)))
    else:
        raise ValueError(f"unknown card layout {layout!r}; one of {', '.join(LAYOUTS)}")
    return rows


def render_id_card(
    *,
    face: bytes | None,
    first_name: str,
    last_name: str,
    id_number: str,
    date_of_birth: date,
    sex: str,
    nationality: str = "SWAZI",
    expiry_date: date | None,
    layout: str = "eswatini",
    blur: float = 0,
    brightness: float = 1.0,
    glare: bool = False,
    fmt: str = "PNG",
) -> bytes:
    """A photographed national ID card as PNG (default) or JPEG bytes; ``face`` is a photo of the holder
    (cropped to fill the portrait frame) or None for a card with an empty frame."""
    width, height = CARD_SIZE
    card = Image.new("RGB", CARD_SIZE, (232, 238, 228))
    draw = ImageDraw.Draw(card)
    draw.rectangle((0, 0, width, 90), fill=(28, 74, 140))
    draw.text((30, 14), "KINGDOM OF ESWATINI", font=_font(30, bold=True), fill=(255, 255, 255))
    draw.text((30, 52), "NATIONAL IDENTITY CARD", font=_font(22), fill=(220, 230, 255))
    portrait_box = (40, 130, 340, 520)
    draw.rectangle(portrait_box, fill=(200, 205, 210))
    if face is not None:
        photo = ImageOps.fit(
            _decode(face),
            (portrait_box[2] - portrait_box[0], portrait_box[3] - portrait_box[1]),
            Image.Resampling.LANCZOS,
            centering=(0.5, 0.35),
        )
        card.paste(photo, portrait_box[:2])
    label_font, value_font = _font(20), _font(30, bold=True)
    rows = _rows(
        layout,
        first_name=first_name,
        last_name=last_name,
        id_number=id_number,
        date_of_birth=date_of_birth,
        sex=sex,
        nationality=nationality,
        expiry_date=expiry_date,
    )
    x, y = 380, 115
    if layout == "stacked":
        # label above value: the names on full-width lines, the rest in two columns
        for index, (label, value) in enumerate(rows):
            if index < 2:
                cx, cy = x, y + index * 100
            else:
                line, column = divmod(index - 2, 2)
                cx, cy = x + column * 300, y + 200 + line * 100
            draw.text((cx, cy), label, font=label_font, fill=(70, 80, 90))
            draw.text((cx, cy + 28), value, font=value_font, fill=(10, 10, 10))
    else:
        for label, value in rows:
            draw.text((x, y + 6), label, font=label_font, fill=(70, 80, 90))
            draw.text((x + 215, y), value, font=value_font, fill=(10, 10, 10))
            y += 66
    card = _defects(card, blur=blur, brightness=brightness, glare=glare)
    return _encode(card, fmt)


def render_selfie(face: bytes, *, brightness: float = 1.0, blur: float = 0.0, extra_face: bytes | None = None) -> bytes:
    """A selfie (JPEG bytes) from a photo of the person, at most 960 px on its longest side; ``extra_face``
    puts a second person beside them."""
    photo = _decode(face)
    photo.thumbnail((960, 960), Image.Resampling.LANCZOS)
    if extra_face is not None:
        other = _decode(extra_face)
        other = ImageOps.fit(other, photo.size, Image.Resampling.LANCZOS)
        both = Image.new("RGB", (photo.width * 2, photo.height), (128, 128, 128))
        both.paste(photo, (0, 0))
        both.paste(other, (photo.width, 0))
        photo = both
    photo = _defects(photo, blur=blur, brightness=brightness, glare=False)
    return _encode(photo, "JPEG")


PASSPORT_SIZE = (1000, 700)


def render_passport(
    *,
    face: bytes | None,
    first_name: str,
    last_name: str,
    passport_number: str,
    date_of_birth: date,
    sex: str,
    nationality: str = "SWZ",
    expiry_date: date,
    visual: dict[str, str] | None = None,
    mrz_lines: tuple[str, str] | None = None,
    blur: float = 0,
    brightness: float = 1.0,
    fmt: str = "PNG",
) -> bytes:
    """A photographed passport data page: portrait, labelled fields and the two-line machine-readable zone
    (ICAO 9303 TD3) in a monospace font at the bottom. ``visual`` overrides what the labelled fields print (to
    make the two zones disagree); ``mrz_lines`` replaces the computed zone (to print a corrupted one)."""

    width, height = PASSPORT_SIZE
    page = Image.new("RGB", PASSPORT_SIZE, (236, 232, 240))
    draw = ImageDraw.Draw(page)
    draw.text((30, 20), "PASSPORT", font=_font(30, bold=True), fill=(60, 30, 90))
    draw.text((300, 28), "KINGDOM OF ESWATINI", font=_font(22), fill=(60, 30, 90))
    portrait_box = (40, 90, 300, 430)
    draw.rectangle(portrait_box, fill=(200, 205, 210))
    if face is not None:
        photo = ImageOps.fit(
            _decode(face),
            (portrait_box[2] - portrait_box[0], portrait_box[3] - portrait_box[1]),
            Image.Resampling.LANCZOS,
            centering=(0.5, 0.35),
        )
        page.paste(photo, portrait_box[:2])
    printed = {
        "Surname": last_name.upper(),
        "Given names": first_name.upper(),
        "Passport No.": passport_number,
        "Nationality": nationality,
        "Date of birth": format_date(date_of_birth, "eswatini"),
        "Sex": sex.upper()[:1],
        "Date of expiry": format_date(expiry_date, "eswatini"),
    }
    printed.update(visual or {})
    label_font, value_font = _font(18), _font(26, bold=True)
    y = 90
    for label, value in printed.items():
        draw.text((340, y + 5), label, font=label_font, fill=(70, 80, 90))
        draw.text((540, y), value, font=value_font, fill=(10, 10, 10))
        y += 48
    lines = mrz_lines or make_td3(
        surname=last_name,
        given_names=first_name,
        document_number=passport_number,
        nationality=nationality,
        date_of_birth=date_of_birth,
        sex=sex,
        expiry_date=expiry_date,
    )
    draw.rectangle((0, 540, width, height), fill=(246, 244, 248))
    mono = _font(36, mono=True)
    for index, line in enumerate(lines):
        draw.text((30, 565 + index * 52), line, font=mono, fill=(10, 10, 10))
    page = _defects(page, blur=blur, brightness=brightness, glare=False)
    return _encode(page, fmt)
