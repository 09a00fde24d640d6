"""Text extraction with tesseract (through pytesseract), then the ID-card parser (``id_fields``).

Tesseract reads printed cards well when the text is 20-40 px high, so the photo is converted to grey and
upscaled when small (a card photographed at 600 px wide has 10-15 px letters). Page segmentation mode 4
("a single column of text of variable sizes") keeps each label on the line of its value, which the default
mode 3 splits into a column of labels and a column of values.
"""

import dataclasses
import functools

from PIL import Image, ImageOps

from verification.engine import id_fields, mrz
from verification.engine.errors import EngineError, OcrFailed
from verification.engine.id_fields import Word
from verification.engine.images import load_image
from verification.engine.types import OCR_ATTRIBUTES, OCR_FIELD_NAMES, OcrResult

# upscale so the longest side reaches this many pixels (never downscale: small print needs every pixel);
# 1000 px read 30 rendered cards as well as 1400 or 2000 and 40% faster (docs/verification-engine.md)
MIN_LONGEST_SIDE = 1000
TESSERACT_CONFIG = "--oem 1 --psm 4"
LANGUAGE = "eng"
TIMEOUT_SECONDS = 30


@functools.cache
def tesseract_version() -> str:
    try:
        import pytesseract

        return str(pytesseract.get_tesseract_version())
    except Exception:
        return "unavailable"


def prepare(image: Image.Image) -> Image.Image:
    """Grey, with autocontrast, upscaled to MIN_LONGEST_SIDE when smaller."""
    grey = ImageOps.autocontrast(image.convert("L"), cutoff=1)
    longest = max(grey.size)
    if longest < MIN_LONGEST_SIDE:
        scale = MIN_LONGEST_SIDE / longest
        grey = grey.resize((round(grey.width * scale), round(grey.height * scale)), Image.Resampling.LANCZOS)
    return grey


def read_lines(image: Image.Image) -> tuple[list[list[Word]], str]:
    """The words tesseract reads, grouped in lines (reading order), and the plain text; raises OcrFailed."""
    try:
        import pytesseract

        data = pytesseract.image_to_data(
            prepare(image),
            lang=LANGUAGE,
            config=TESSERACT_CONFIG,
            output_type=pytesseract.Output.DICT,
            timeout=TIMEOUT_SECONDS,
        )
    except ImportError as exc:
        raise OcrFailed(f"OCR extraction failed: pytesseract is not installed ({exc}).") from None
    except Exception as exc:  # TesseractNotFoundError, TesseractError, RuntimeError (timeout)
        raise OcrFailed(f"OCR extraction failed: {exc}".rstrip(".") + ".") from None
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for index, text in enumerate(data["text"]):
        text = (text or "").strip()
        confidence = float(data["conf"][index])
        if not text or confidence < 0:
            continue
        key = (data["block_num"][index], data["par_num"][index], data["line_num"][index])
        lines.setdefault(key, []).append(Word(text, confidence))
    ordered = [lines[key] for key in sorted(lines)]
    raw_text = "\n".join(" ".join(word.text for word in line) for line in ordered)
    return ordered, raw_text


def _parse_image(data: bytes, which: str) -> tuple[list[list[Word]], str]:
    try:
        image = load_image(data)
    except EngineError as exc:
        raise OcrFailed(f"OCR extraction failed: the {which} could not be read ({exc})") from None
    return read_lines(image)


def extract(id_front: bytes, id_back: bytes | None = None) -> OcrResult:
    """The ID fields of the front of the card and, when given, its back (the front's values win)."""
    lines, raw_text = _parse_image(id_front, "front of the ID")
    if id_back is not None:
        back_lines, back_text = _parse_image(id_back, "back of the ID")
        lines = lines + back_lines  # parse_lines keeps the first value found: the front wins
        raw_text = raw_text + "\n\n" + back_text
    return result_from_document(lines, raw_text)


def result_from_document(lines: list[list[Word]], raw_text: str) -> OcrResult:
    """The OcrResult of a document's OCR lines: the labelled (visual) fields and, when the document has a
    machine-readable zone, that zone's fields, which win when its check digits pass."""
    zone = mrz.find(raw_text)
    visual = [line for line in lines if not mrz.is_mrz_line(" ".join(word.text for word in line))]
    parsed = id_fields.parse_lines(visual)
    if zone is not None:
        zone_words = [w for line in lines if mrz.is_mrz_line(" ".join(x.text for x in line)) for w in line]
        parsed = merge_mrz(parsed, zone, zone_words)
    return result_from_parsed(parsed, raw_text)


# fields a passing MRZ guarantees: each is covered by a check digit
MRZ_CHECKED = ("idNumber", "dateOfBirth", "expiryDate")


def merge_mrz(parsed: id_fields.ParsedId, zone: mrz.Mrz, zone_words: list[Word]) -> id_fields.ParsedId:
    """The visual zone's fields merged with the machine-readable zone's.

    When every check digit passes, the MRZ's document number and dates win over the visual zone's (a
    disagreement is reported). Names, sex and nationality are not covered by any check digit, so an OCR misreading
    in them goes unnoticed (measured: "SIPHO" read "STPHO" in the zone, right in the visual zone): the visual zone
    keeps them when it has them, the MRZ fills them when it has not, and a disagreement is reported. When a check
    digit fails, the MRZ is not used and each failing digit is an issue."""
    if not zone.valid:
        return id_fields.ParsedId(
            fields=parsed.fields, words=parsed.words, issues=parsed.issues + [*zone.issues, "MRZ not used"]
        )
    confidence = sum(w.confidence for w in zone_words) / len(zone_words) if zone_words else 100.0
    values, words, notes = {}, dict(parsed.words), []
    for name, attribute in OCR_ATTRIBUTES.items():
        visual, machine = getattr(parsed.fields, attribute), getattr(zone.fields, attribute)
        if not machine:
            continue
        if visual and _differs(name, visual, machine):
            used = "MRZ used" if name in MRZ_CHECKED else "visual zone used: no check digit covers it in the MRZ"
            notes.append(f"{name}: the visual zone reads {_show(visual)}, the MRZ {_show(machine)} ({used})")
        if name in MRZ_CHECKED or not visual:
            values[attribute] = machine
            words[name] = [Word(str(machine), confidence)]
    fields = dataclasses.replace(parsed.fields, **values)
    kept = [
        issue
        for issue in parsed.issues
        if not (issue.startswith("idNumber has") or issue.split(" ")[0] in words and issue.endswith("not found"))
    ]
    return id_fields.ParsedId(fields=fields, words=words, issues=kept + notes)


def _differs(name: str, visual, machine) -> bool:
    if name in ("firstName", "lastName"):
        # the MRZ has no accents, hyphens or apostrophes (ICAO transliteration): compare letters only
        return _letters(visual) != _letters(machine)
    return visual != machine


def _letters(text: str) -> str:
    import unicodedata

    folded = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in folded if ch.isalpha() and not unicodedata.combining(ch)).upper()


def _show(value) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else repr(value)


def result_from_parsed(parsed: id_fields.ParsedId, raw_text: str) -> OcrResult:
    """An OcrResult of the parser's answer: per-field confidence = mean of the field's words, overall = mean over
    all the words used."""
    field_confidence = {}
    all_words: list[Word] = []
    for name in OCR_FIELD_NAMES:
        words = parsed.words.get(name)
        if words:
            field_confidence[name] = sum(w.confidence for w in words) / len(words)
            all_words.extend(words)
    confidence = sum(w.confidence for w in all_words) / len(all_words) if all_words else 0.0
    return OcrResult(
        fields=parsed.fields,
        confidence=confidence,
        field_confidence=field_confidence,
        extracted_fields=parsed.extracted,
        complete=parsed.complete,
        issues=tuple(parsed.issues),
        raw_text=raw_text,
    )
