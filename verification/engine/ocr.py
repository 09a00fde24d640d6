"""Text extraction with tesseract (through pytesseract) or RapidOCR (PaddleOCR's models on onnxruntime), then
the ID-card parser (``id_fields``) and the machine-readable zone's (``mrz``).

Tesseract reads printed cards well when the text is 20-40 px high, so the photo is converted to grey and
upscaled when small (a card photographed at 600 px wide has 10-15 px letters). Page segmentation mode 4
("a single column of text of variable sizes") keeps each label on the line of its value, which the default
mode 3 splits into a column of labels and a column of values.

RapidOCR finds text segments (a label, a value) and reads each; segments whose vertical extents overlap are
joined into one line, left to right, so a label and its value meet again. Its recogniser drops some spaces
between words ("SIPHOMANDLA"): they are put back where the segment's own pixels show a gap between letters
wider than a third of the text's height (``restore_spaces``). Its models ship in the wheel: no system package.

``engine_name(setting)`` chooses: ``tesseract``, ``rapidocr``, or ``auto`` (tesseract when its binary is on
the PATH, else RapidOCR; docs/verification-engine.md says why, with the measurements).
"""

import dataclasses
import functools
import os
import shutil
import threading

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
# OpenMP threads of each tesseract process (OMP_THREAD_LIMIT, unless the environment sets it): its threads spin
# while they wait, and on this 2-CPU machine one thread read a card in 420 ms against 805 ms with the default
# (docs/verification-engine.md); several jobs at once then share the CPUs instead of fighting over them
TESSERACT_THREADS = 1
# photos of cards are turned a few degrees; a line of text then drifts across the next one (4 degrees: 20 px over
# a 300 px value), which breaks lines apart for both engines. Searched within this range, in these steps.
MAX_SKEW_DEGREES = 6.0
SKEW_STEP_DEGREES = 0.5
ENGINES = ("tesseract", "rapidocr")
# RapidOCR's detector sees the image with its longest side at most this (its default scales the *shortest* side
# up to 736 px: a 1000x630 card became 1168x736, 20-30% slower for the same text; docs/verification-engine.md)
RAPIDOCR_DET_LONGEST_SIDE = 960
# onnxruntime threads per model: as with tesseract, one thread read a card faster on this loaded 2-CPU machine
# (2977 ms against 4270 ms for onnxruntime's default of one per core, measured side by side at load 4-5)
RAPIDOCR_THREADS = 1
# a gap between letters wider than this share of the text's height is a space (DejaVu at 30 px: letters 0-4 px
# apart, words 9-12 px)
SPACE_GAP_RATIO = 0.3


def engine_name(setting: str | None = "auto") -> str:
    """The OCR engine a setting means: ``tesseract`` / ``rapidocr`` as named; ``auto`` (or None): tesseract when
    its binary is on the PATH, otherwise RapidOCR (whose models ship in its wheel)."""
    setting = (setting or "auto").lower()
    if setting in ENGINES:
        return setting
    if setting != "auto":
        raise ValueError(f"unknown OCR engine {setting!r}: auto, {', '.join(ENGINES)}")
    return "tesseract" if shutil.which("tesseract") else "rapidocr"


@functools.cache
def tesseract_version() -> str:
    try:
        import pytesseract

        return str(pytesseract.get_tesseract_version())
    except Exception:
        return "unavailable"


def skew_angle(grey: Image.Image) -> float:
    """The angle (degrees, counter-clockwise) by which the text of a photographed card is turned, within
    ±MAX_SKEW_DEGREES: the rotation that makes the rows of ink sharpest (the variance of the differences between
    adjacent rows of the horizontal projection), on a copy 600 px wide, in steps of SKEW_STEP_DEGREES."""
    import numpy as np

    small = grey.copy()
    small.thumbnail((600, 600), Image.Resampling.BILINEAR)
    pixels = np.asarray(small, dtype=np.float32)
    threshold = (float(np.percentile(pixels, 90)) + float(pixels.min())) / 2
    ink = Image.fromarray(((pixels < threshold) * 255).astype(np.uint8))
    best, best_score = 0.0, -1.0
    steps = int(round(MAX_SKEW_DEGREES / SKEW_STEP_DEGREES))
    for step in range(-steps, steps + 1):
        angle = step * SKEW_STEP_DEGREES
        rows = np.asarray(ink.rotate(angle, resample=Image.Resampling.NEAREST), dtype=np.float32).sum(axis=1)
        score = float(np.square(np.diff(rows)).sum())
        if score > best_score:
            best, best_score = angle, score
    return -best


def prepare(image: Image.Image) -> Image.Image:
    """Grey, with autocontrast, turned straight (see ``skew_angle``), upscaled to MIN_LONGEST_SIDE when
    smaller."""
    import numpy as np

    grey = ImageOps.autocontrast(image.convert("L"), cutoff=1)
    angle = skew_angle(grey)
    if abs(angle) >= SKEW_STEP_DEGREES / 2:
        background = int(np.percentile(np.asarray(grey), 90))
        grey = grey.rotate(-angle, resample=Image.Resampling.BICUBIC, fillcolor=background)
    longest = max(grey.size)
    if longest < MIN_LONGEST_SIDE:
        scale = MIN_LONGEST_SIDE / longest
        grey = grey.resize((round(grey.width * scale), round(grey.height * scale)), Image.Resampling.LANCZOS)
    return grey


def read_lines(image: Image.Image, engine: str = "tesseract") -> tuple[list[list[Word]], str]:
    """The words the engine reads, grouped in lines (reading order), and the plain text; raises OcrFailed."""
    if engine == "rapidocr":
        return rapidocr_lines(image)
    return tesseract_lines(image)


def tesseract_lines(image: Image.Image) -> tuple[list[list[Word]], str]:
    """The words tesseract reads, grouped in lines (reading order), and the plain text; raises OcrFailed."""
    os.environ.setdefault("OMP_THREAD_LIMIT", str(TESSERACT_THREADS))  # read by the tesseract child process
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


# ---------------------------------------------------------------------------------------------------- RapidOCR

_rapidocr = None
_rapidocr_lock = threading.Lock()


def rapidocr_engine():
    """RapidOCR's detector and recogniser, loaded once per process (~0.5 s)."""
    global _rapidocr
    if _rapidocr is None:
        with _rapidocr_lock:
            if _rapidocr is None:
                from rapidocr_onnxruntime import RapidOCR

                _rapidocr = RapidOCR(
                    det_limit_side_len=RAPIDOCR_DET_LONGEST_SIDE,
                    det_limit_type="max",
                    intra_op_num_threads=RAPIDOCR_THREADS,
                    print_verbose=False,
                )
    return _rapidocr


@functools.cache
def rapidocr_version() -> str:
    try:
        from importlib import metadata

        return metadata.version("rapidocr-onnxruntime")
    except Exception:
        return "unavailable"


def restore_spaces(grey, box, text: str, char_boxes) -> str:
    """``text`` with the spaces put back that the recogniser dropped: a column gap in the segment's pixels wider
    than SPACE_GAP_RATIO of its height, between two letters, is a space. ``char_boxes`` are the recogniser's
    per-character boxes (positions along the line, not glyph outlines: too coarse to see gaps themselves)."""
    import numpy as np

    if len(text) < 2 or len(char_boxes) != len(text):
        return text
    xs = [p[0] for p in box]
    ys = [p[1] for p in box]
    left, right = max(0, int(min(xs))), min(grey.shape[1], int(max(xs)) + 1)
    top, bottom = max(0, int(min(ys))), min(grey.shape[0], int(max(ys)) + 1)
    crop = grey[top:bottom, left:right]
    if crop.size == 0:
        return text
    height = bottom - top
    # ink: darker than the midpoint between the segment's paper and its darkest strokes
    ink = crop < (float(np.percentile(crop, 90)) + float(crop.min())) / 2
    columns = ink.any(axis=0)
    inked = np.flatnonzero(columns)
    if len(inked) < 2:
        return text
    gaps = []  # (start, end) of blank runs between the first and the last inked column, in image x
    run_start = None
    for x in range(inked[0], inked[-1] + 1):
        if not columns[x] and run_start is None:
            run_start = x
        elif columns[x] and run_start is not None:
            if x - run_start >= SPACE_GAP_RATIO * height:
                gaps.append((left + run_start, left + x))
            run_start = None
    if not gaps:
        return text
    centres = [sum(p[0] for p in cb) / len(cb) for cb in char_boxes]
    out = []
    for index, char in enumerate(text):
        if index and char != " " and text[index - 1] != " ":
            before, after = centres[index - 1], centres[index]
            if any(before < (start + end) / 2 < after for start, end in gaps):
                out.append(" ")
        out.append(char)
    return "".join(out)


def rapidocr_lines(image: Image.Image) -> tuple[list[list[Word]], str]:
    """The words RapidOCR reads, grouped in lines (segments overlapping vertically, left to right)."""
    import numpy as np

    grey_image = prepare(image)
    grey = np.asarray(grey_image)
    try:
        engine = rapidocr_engine()
        with _rapidocr_lock:  # rapidocr sets per-call options on the shared object
            result, _ = engine(np.stack([grey] * 3, axis=-1), use_cls=False, return_word_box=True)
    except ImportError as exc:
        raise OcrFailed(f"OCR extraction failed: rapidocr-onnxruntime is not installed ({exc}).") from None
    except Exception as exc:
        raise OcrFailed(f"OCR extraction failed: RapidOCR: {exc}".rstrip(".") + ".") from None
    segments = []
    for item in result or []:
        box, text, score = item[0], str(item[1]), float(item[2])
        char_boxes = item[3] if len(item) > 3 else []
        text = restore_spaces(grey, box, text, char_boxes) if char_boxes else text
        ys = [p[1] for p in box]
        segments.append((min(ys), max(ys), min(p[0] for p in box), text, score * 100.0))
    segments.sort(key=lambda s: (s[0] + s[1]) / 2)
    rows: list[list[tuple]] = []
    for segment in segments:
        top, bottom = segment[0], segment[1]
        if rows:
            row_top = min(s[0] for s in rows[-1])
            row_bottom = max(s[1] for s in rows[-1])
            overlap = min(bottom, row_bottom) - max(top, row_top)
            if overlap > 0.5 * min(bottom - top, row_bottom - row_top):
                rows[-1].append(segment)
                continue
        rows.append([segment])
    lines = []
    for row in rows:
        words = [Word(token, s[4]) for s in sorted(row, key=lambda s: s[2]) for token in s[3].split()]
        if words:
            lines.append(words)
    raw_text = "\n".join(" ".join(word.text for word in line) for line in lines)
    return lines, raw_text


# ------------------------------------------------------------------------------------------------- extraction


def _parse_image(data: bytes, which: str, engine: str) -> tuple[list[list[Word]], str]:
    try:
        image = load_image(data)
    except EngineError as exc:
        raise OcrFailed(f"OCR extraction failed: the {which} could not be read ({exc})") from None
    return read_lines(image, engine)


def extract(id_front: bytes, id_back: bytes | None = None, *, engine: str = "tesseract") -> OcrResult:
    """The ID fields of the front of the card and, when given, its back (the front's values win)."""
    lines, raw_text = _parse_image(id_front, "front of the ID", engine)
    if id_back is not None:
        back_lines, back_text = _parse_image(id_back, "back of the ID", engine)
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
