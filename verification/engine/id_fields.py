"""Reading the fields of a national ID card from OCR text: pure functions, no OCR engine, no Django.

Built for Eswatini's national ID and cards laid out like it: a label, then its value on the same line
("Surname OBAMA", "Date of Birth: 04.08.1961") or on the next line; several labels on one line ("PIN DOB")
take their values from the next line in the same order ("6108041234567 04 AUG 1961").

Labels: Surname / Last name / Family name; Forenames / Names / First name(s) / Given names; ID No / Personal
ID No / PIN / Identity number / Passport No; Date of Birth / DOB / Birth date; Sex / Gender; Nationality / Citizenship;
Date of Expiry / Expiry / Valid until. Long labels are matched with a small tolerance for OCR misreadings.

Values: names are title-cased (accents, hyphens and apostrophes kept); ID numbers keep digits only, after
reading the letters OCR confuses with digits (O→0, I/l→1, S→5, B→8, Z→2); Eswatini PINs have 13 digits, other
lengths are kept with an issue; dates may be DD.MM.YYYY, DD/MM/YYYY, DD-MM-YYYY, YYYY-MM-DD or DD MMM YYYY; sex
is MALE or FEMALE. A card without an expiry date (older Eswatini cards) is not an issue.
"""

import re
from dataclasses import dataclass, field
from datetime import date

from rapidfuzz import fuzz

from verification.engine.types import OcrFields

EXPECTED_ID_DIGITS = 13
# fuzz.ratio (0-100) from which a misread word is taken for a label of six letters or more
LABEL_SIMILARITY = 85
REQUIRED_FIELDS = ("firstName", "lastName", "idNumber", "dateOfBirth")

LABELS: dict[str, tuple[str, ...]] = {
    "lastName": ("surname", "last name", "family name", "lastname"),
    "firstName": (
        "forenames",
        "forename",
        "first names",
        "first name",
        "firstname",
        "given names",
        "given name",
        "names",
        "christian names",
    ),
    "idNumber": (
        "personal identification number",
        "personal id number",
        "personal id no",
        "personal id",
        "national id number",
        "national id no",
        "passport number",
        "passport no",
        "document number",
        "document no",
        "identity number",
        "identity no",
        "id number",
        "id no",
        "pin",
        "id",
    ),
    "dateOfBirth": ("date of birth", "birth date", "dob", "born"),
    "sex": ("sex", "gender"),
    "nationality": ("nationality", "citizenship"),
    "expiryDate": ("date of expiry", "expiry date", "date of exp", "expiry", "expires", "valid until", "valid thru"),
}
# (field, label tokens), longest first so "date of birth" wins over "dob"-like shorter ones
_LABEL_TOKENS = sorted(
    ((name, tuple(label.split())) for name, labels in LABELS.items() for label in labels),
    key=lambda item: -len(" ".join(item[1])),
)
_MAX_LABEL_TOKENS = max(len(tokens) for _, tokens in _LABEL_TOKENS)

MONTHS = {
    name: index + 1
    for index, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ]
    )
    for name in names
}
_DIGIT_LOOKALIKES = str.maketrans({"O": "0", "o": "0", "Q": "0", "D": "0", "I": "1", "l": "1", "|": "1", "i": "1",
                                   "!": "1", "S": "5", "s": "5", "B": "8", "Z": "2", "z": "2"})  # fmt: skip
_NUMERIC = re.compile(r"^(\d{1,2})[.\-/ ,](\d{1,2})[.\-/ ,](\d{4})$")
_ISO = re.compile(r"^(\d{4})[.\-/ ](\d{1,2})[.\-/ ](\d{1,2})$")
_NAMED = re.compile(r"^(\d{1,2})[ .\-/]*([A-Za-z]{3,9})[ .\-/,]*(\d{4})$")
_DATE_CANDIDATE = re.compile(
    r"\d{1,2}\s*[.\-/ ,]\s*\d{1,2}\s*[.\-/ ,]\s*\d{4}|\d{4}\s*[.\-/]\s*\d{1,2}\s*[.\-/]\s*\d{1,2}"
    r"|\d{1,2}\s*[ .\-/]?\s*[A-Za-z]{3,9}\s*[ .\-/,]?\s*\d{4}"
)
_SEX = {"m": "MALE", "male": "MALE", "f": "FEMALE", "female": "FEMALE"}
_NAME_CHARS = re.compile(r"[^\w\s'\-]", re.UNICODE)


@dataclass(frozen=True)
class Word:
    """One OCR word and the engine's confidence in it (0-100)."""

    text: str
    confidence: float = 100.0


@dataclass
class ParsedId:
    """The fields found, the words each was read from, and what is wrong or missing."""

    fields: OcrFields
    words: dict[str, list[Word]] = field(default_factory=dict)  # API field name -> words of its value
    issues: list[str] = field(default_factory=list)

    @property
    def extracted(self) -> tuple[str, ...]:
        return tuple(name for name in _ORDER if name in self.words)

    @property
    def complete(self) -> bool:
        return all(name in self.words for name in REQUIRED_FIELDS)


_ORDER = ("firstName", "lastName", "idNumber", "dateOfBirth", "sex", "nationality", "expiryDate")


# values


def _fix_digits(text: str) -> str:
    return text.translate(_DIGIT_LOOKALIKES)


def parse_date(text: str) -> date | None:
    """A date from the formats printed on ID cards (and Textract's), tolerating O/0 and I/1 confusions."""
    value = re.sub(r"\s+", " ", text.strip().strip(".,:;")).strip()
    if not value:
        return None
    named = _NAMED.match(value)
    if named:
        day, month_name, year = named.groups()
        month = MONTHS.get(month_name.lower())
        day, year = _fix_digits(day), _fix_digits(year)
        if month and day.isdigit() and year.isdigit():
            return _date(int(year), month, int(day))
    fixed = _fix_digits(value)
    iso = _ISO.match(fixed)
    if iso:
        year, month, day = (int(part) for part in iso.groups())
        return _date(year, month, day)
    numeric = _NUMERIC.match(fixed)
    if numeric:
        day, month, year = (int(part) for part in numeric.groups())
        return _date(year, month, day)
    return None


def _date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def find_date(text: str) -> date | None:
    """The first date anywhere in ``text``."""
    for candidate in _DATE_CANDIDATE.finditer(_fix_digits_near_digits(text)):
        parsed = parse_date(candidate.group(0))
        if parsed:
            return parsed
    return None


def _fix_digits_near_digits(text: str) -> str:
    # O/I/l inside runs of digits ("O4.O8.1961") are digits; letters in month names are left alone
    return re.sub(r"(?<=[\d.\-/])[OoIl|]|[OoIl|](?=[\d.\-/])", lambda m: _fix_digits(m.group(0)), text)


def _digitish(token: str) -> bool:
    core = token.strip(".,:;-")
    if not core:
        return False
    fixed = _fix_digits(core)
    digits = sum(ch.isdigit() for ch in core)
    return fixed.isdigit() and digits * 2 >= len(core)


def parse_id_number(text: str) -> str:
    """The digits of an ID number (spaces and dashes dropped, look-alike letters read as digits)."""
    tokens = [tok for tok in re.split(r"[\s\-]+", text) if tok]
    digits = ""
    for token in tokens:
        if len(digits) >= EXPECTED_ID_DIGITS:
            break  # a whole PIN read ("6108041234567 1": the 1 is a stray mark, not a 14th digit)
        if _digitish(token):
            digits += _fix_digits(token.strip(".,:;-"))
        elif digits:
            break
    return digits


def parse_sex(text: str) -> str:
    token = re.sub(r"[^a-z]", "", text.lower().split()[0]) if text.split() else ""
    return _SEX.get(token, "")


def clean_name(text: str) -> str:
    """A name as people write it: stray punctuation dropped, spaces collapsed, each part capitalised."""
    value = _NAME_CHARS.sub(" ", text)
    value = re.sub(r"\d", " ", value).replace("_", " ")
    parts = [part.strip("-'") for part in value.split()]
    return " ".join(_title(part) for part in parts if part)


def _title(word: str) -> str:
    return "-".join("'".join(piece[:1].upper() + piece[1:].lower() for piece in hyphen.split("'")) for hyphen in
                    word.split("-"))  # fmt: skip


def clean_nationality(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s\-]|\d|_", " ", text).split()).upper()


# labels and lines


def _norm(token: str) -> str:
    return re.sub(r"[^\w]", "", token.lower())


def _canonical(text: str) -> str:
    # the letter shapes OCR confuses most in labels: "rn" read for "m" ("Sumame"), "cl" for "d", "vv" for "w"
    return text.replace("rn", "m").replace("cl", "d").replace("vv", "w").translate(_LABEL_LOOKALIKES)


_LABEL_LOOKALIKES = str.maketrans({"0": "o", "1": "l", "5": "s", "8": "b"})


def _glued_span(normalised: list[str], label: tuple[str, ...]) -> int:
    """How many tokens spell ``label`` with a space (or more) missing inside it, fewer than its words ("Date
    ofBirth", "DateofBirth" for date of birth), 0 when they do not."""
    glued, text = "".join(label), ""
    for count, token in enumerate(normalised[: len(label) - 1], start=1):
        text += token
        if text == glued:
            return count
        if not glued.startswith(text):
            return 0
    return 0


def _label_at(tokens: list[str], start: int) -> tuple[str, int] | None:
    """The field whose label starts at ``tokens[start]`` and how many tokens it spans: an exact label, else the
    closest label of six letters or more within LABEL_SIMILARITY (letter shapes OCR confuses made alike)."""
    normalised = [_norm(tok) for tok in tokens[start : start + _MAX_LABEL_TOKENS + 1]]
    if not normalised or not normalised[0]:
        return None
    best: tuple[float, int, str, int] | None = None
    for name, label in _LABEL_TOKENS:
        span = len(label)
        if span > len(normalised) and not _glued_span(normalised, label):
            continue
        joined, wanted = " ".join(normalised[:span]), " ".join(label)
        glued = _glued_span(normalised, label)
        if glued:  # "Date ofBirth", "DateofBirth": OCR dropped a space inside the label
            span = glued
            score = 100.5
        elif joined == wanted:
            score = 101.0
        elif len(wanted) >= 6:
            score = fuzz.ratio(_canonical(joined), _canonical(wanted))
            if score < LABEL_SIMILARITY:
                continue
        else:
            continue
        candidate = (score, len(wanted), name, span)
        if best is None or candidate[:2] > best[:2]:
            best = candidate
    if best is None:
        return None
    _, _, name, span = best
    # "No"/"Number" after an ID label belongs to the label
    if name == "idNumber" and span < len(normalised) and normalised[span] in ("no", "number", "nr"):
        span += 1
    return name, span


# labels written without their spaces ("dateofbirth"), longest first, for words OCR glued together
_GLUED_LABELS = sorted(
    {label.replace(" ", ""): label for labels in LABELS.values() for label in labels}.items(), key=lambda i: -len(i[0])
)


def _unglue(words: list[Word]) -> list[Word]:
    """Words with a label glued to its value or to itself split apart, as OCR that drops spaces writes them:
    "DateofBirth" → "Date of Birth"; "Names:SIPHO" → "Names", "SIPHO"; "IDNo:6108..." / "PIN6108..." → the label,
    then the number. A glued label must be the whole word, or be followed by a colon, a digit, or (for labels of
    five letters or more) a capital after a small letter ("SurnameOBAMA"), so a name that merely starts like a
    label ("Pinto") is left alone."""
    out: list[Word] = []
    for word in words:
        text = word.text
        lowered = text.lower()
        split = None
        for glued, label in _GLUED_LABELS:
            if len(glued) < 3 or not lowered.startswith(glued):
                continue
            rest = text[len(glued) :]
            if rest in ("", ":", ".", ":."):
                if " " in label:
                    split = [*label.split(), rest] if rest else label.split()
                break
            head = rest.lstrip(".:")
            if (
                rest[0] in ":."
                or rest[0].isdigit()
                or (len(glued) >= 5 and rest[0].isupper() and text[len(glued) - 1].islower())
            ):
                split = [*label.split(), head] if head else label.split()
                break
        if split is None:
            out.append(word)
        else:
            out.extend(Word(piece, word.confidence) for piece in split if piece)
    return out


def _segments(words: list[Word]) -> list[tuple[str | None, list[Word]]]:
    """A line cut into (field or None, value words): ``[(None, noise), ("lastName", [OBAMA]), ...]``."""
    words = _unglue(words)
    tokens = [w.text for w in words]
    segments: list[tuple[str | None, list[Word]]] = [(None, [])]
    index = 0
    while index < len(tokens):
        found = _label_at(tokens, index)
        # a lone "ID"/"PIN" in the middle of a value is not a label unless it starts the line or follows one
        if found:
            segments.append((found[0], []))
            index += found[1]
            continue
        if _norm(tokens[index]) or tokens[index].strip():
            segments[-1][1].append(words[index])
        index += 1
    return segments


def _value_words(words: list[Word]) -> list[Word]:
    cleaned = []
    for word in words:
        text = word.text.strip(":;|=_,")
        if text and text not in ("-", "—", "."):
            cleaned.append(Word(text, word.confidence))
    return cleaned


def _take(name: str, words: list[Word], last: bool) -> tuple[list[Word], list[Word]]:
    """The words at the front of ``words`` that make the value of ``name``, and the rest."""
    if not words:
        return [], []
    if last:
        return words, []
    if name in ("dateOfBirth", "expiryDate"):
        # "14 JUN 1949", "14JUN 1949", "14.06.1949"; after at most one stray mark read as a character ("1", "|")
        for skip in (0, 1):
            for size in (3, 2, 1):
                end = skip + size
                if len(words) >= end and parse_date(" ".join(w.text for w in words[skip:end])):
                    return words[skip:end], words[end:]
        return [], words
    if name == "idNumber":
        count = 0
        while count < len(words) and _digitish(words[count].text):
            if count and _starts_date(words[count:]):
                break  # "6108041234567 04 AUG 1961": the date of the next label begins
            if count and len(parse_id_number(" ".join(w.text for w in words[:count]))) >= EXPECTED_ID_DIGITS:
                break  # a whole PIN read: what follows ("1" for a stray bar) belongs to the next value
            count += 1
        return words[:count], words[count:]
    if name == "sex":
        return words[:1], words[1:]
    count = 0
    while count < len(words) and not _digitish(words[count].text) and not parse_sex(words[count].text):
        count += 1
    return words[: max(count, 1)], words[max(count, 1) :]


def _starts_date(words: list[Word]) -> bool:
    return any(len(words) >= size and parse_date(" ".join(w.text for w in words[:size])) for size in (3, 2, 1))


def _value(name: str, words: list[Word]):
    text = " ".join(w.text for w in words)
    if name in ("firstName", "lastName"):
        return clean_name(text)
    if name == "idNumber":
        return parse_id_number(text)
    if name in ("dateOfBirth", "expiryDate"):
        return parse_date(text) or find_date(text)
    if name == "sex":
        return parse_sex(text)
    return clean_nationality(text)


def parse_lines(lines: list[list[Word]]) -> ParsedId:
    """The ID fields of OCR lines (each a list of words, in reading order). The first value found for a field
    wins."""
    values: dict[str, object] = {}
    used: dict[str, list[Word]] = {}

    def assign(name: str, words: list[Word]) -> bool:
        if name in values or not words:
            return False
        value = _value(name, words)
        if not value:
            return False
        values[name] = value
        used[name] = words
        return True

    pending: list[str] = []
    for line in lines:
        segments = _segments(line)
        labelled = [(name, _value_words(words)) for name, words in segments if name]
        if pending and not labelled:
            # the values of the previous line's labels, in the same order
            rest = _value_words(segments[0][1])
            for position, name in enumerate(pending):
                taken, rest = _take(name, rest, last=position == len(pending) - 1)
                assign(name, taken)
            pending = []
            continue
        pending = []
        for name, words in labelled:
            if words:
                assign(name, words)
            elif name not in values:
                pending.append(name)
    return _result(values, used)


def _result(values: dict, used: dict[str, list[Word]]) -> ParsedId:
    fields = OcrFields(
        first_name=values.get("firstName", ""),
        last_name=values.get("lastName", ""),
        id_number=values.get("idNumber", ""),
        date_of_birth=values.get("dateOfBirth"),
        sex=values.get("sex", ""),
        nationality=values.get("nationality", ""),
        expiry_date=values.get("expiryDate"),
    )
    issues = [f"{name} not found" for name in REQUIRED_FIELDS if name not in values]
    digits = len(fields.id_number)
    if fields.id_number and digits != EXPECTED_ID_DIGITS:
        issues.append(f"idNumber has {digits} digits, expected {EXPECTED_ID_DIGITS}")
    if fields.date_of_birth and fields.date_of_birth > date.today():
        issues.append("dateOfBirth is in the future")
    return ParsedId(fields=fields, words=used, issues=issues)


def parse_text(text: str) -> ParsedId:
    """The ID fields of plain OCR text (lines split on newlines, words on spaces; confidence 100)."""
    return parse_lines([[Word(token) for token in line.split()] for line in text.splitlines() if line.strip()])
