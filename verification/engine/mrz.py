"""The machine-readable zone of passports (ICAO 9303 TD3) and ID cards (TD1), from OCR text: pure functions.

TD3 (passport data page): two lines of 44 characters. TD1 (ID card): three lines of 30. Characters are A-Z,
0-9 and the filler ``<``. Each of the document number, the date of birth, the expiry date and the optional data
has a check digit, and a composite check digit covers them all: the characters' values (0-9, A=10 .. Z=35,
``<`` = 0) weighted 7, 3, 1, 7, 3, 1, ... summed modulo 10.

OCR reads the zone with typical mistakes, which are undone where the position tells what a character must be:

* ``<`` read as ``«``, ``‹``, ``(`` or ``[``; as ``K`` within runs of fillers (a ``K`` with a filler on one side
  and a filler or the line's end on the other; a name's own K, as in ERIK<<, has a letter beside it);
* letters in the digit positions (dates, check digits): O/D/Q→0, I/L→1, Z→2, S→5, G→6, B→8;
* spaces inside a line; a line one or two fillers short or long (padded or cut at its end).

A zone whose check digits all pass is ``valid``; each failing check digit is named in ``issues``.
"""

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date

from verification.engine.id_fields import clean_name
from verification.engine.types import OcrFields

WEIGHTS = (7, 3, 1)
TD3_LENGTH, TD1_LENGTH = 44, 30
# how far a line read by OCR may be from its length and still be tried
LENGTH_TOLERANCE = 3

_FILLER_LOOKALIKES = str.maketrans({"«": "<", "‹": "<", "(": "<", "[": "<", "{": "<"})
_DIGITS = str.maketrans({"O": "0", "D": "0", "Q": "0", "U": "0", "I": "1", "L": "1", "Z": "2", "S": "5", "G": "6",
                         "B": "8", "<": "<"})  # fmt: skip
_CANDIDATE = re.compile(r"^[A-Z0-9<]+$")
_SEX = {"M": "MALE", "F": "FEMALE"}


def char_value(char: str) -> int:
    if char.isdigit():
        return int(char)
    if "A" <= char <= "Z":
        return ord(char) - ord("A") + 10
    return 0  # "<"


def check_digit(text: str) -> str:
    """The ICAO 9303 check digit of ``text``."""
    return str(sum(char_value(char) * WEIGHTS[index % 3] for index, char in enumerate(text)) % 10)


@dataclass
class Mrz:
    """A machine-readable zone: its format, the (corrected) lines, the fields and the failing check digits."""

    format: str  # "TD3" | "TD1"
    lines: tuple[str, ...]
    fields: OcrFields
    document_type: str = ""
    issuing_state: str = ""
    optional_data: str = ""
    issues: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.issues


def _clean(line: str) -> str:
    # compatibility forms first (full-width letters, "℃" that RapidOCR's Chinese-trained recogniser reads for C)
    line = unicodedata.normalize("NFKC", line.translate(_FILLER_LOOKALIKES)).replace("°", "")
    return re.sub(r"\s+", "", line).upper()


def _fillers(line: str) -> str:
    """``K`` read for ``<`` inside runs of fillers made ``<`` again."""
    chars = list(line)
    changed = True
    while changed:
        changed = False
        for index, char in enumerate(chars):
            if char != "K":
                continue
            left = chars[index - 1] if index > 0 else "<"
            right = chars[index + 1] if index + 1 < len(chars) else "<"
            if (left == "<" and right in "<K") or (left in "<K" and right == "<"):
                if left == "<" or right == "<":
                    chars[index] = "<"
                    changed = True
    return "".join(chars)


def _fit(line: str, length: int) -> str:
    """A line of exactly ``length``: short lines padded with fillers, long ones cut at trailing fillers first."""
    if len(line) < length:
        return line + "<" * (length - len(line))
    while len(line) > length and "<<" in line[length - 1 :]:
        position = line.rfind("<<")
        line = line[:position] + line[position + 1 :]
    return line[:length]


def _digits(text: str) -> str:
    return text.translate(_DIGITS)


def _date(yymmdd: str, *, future: bool) -> date | None:
    if not yymmdd.isdigit():
        return None
    yy, mm, dd = int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:])
    this_year = date.today().year % 100
    if future:  # expiry: this century, unless that is more than 50 years ahead
        century = 2000 if yy <= this_year + 50 else 1900
    else:  # birth: never in the future
        century = 2000 if yy <= this_year else 1900
    try:
        return date(century + yy, mm, dd)
    except ValueError:
        return None


def _names(text: str) -> tuple[str, str]:

    surname, _, given = text.strip("<").partition("<<")
    return clean_name(surname.replace("<", " ")), clean_name(given.strip("<").replace("<", " "))


class _Checks:
    def __init__(self):
        self.issues: list[str] = []

    def check(self, what: str, text: str, digit: str, *, filler_ok: bool = False) -> bool:
        if filler_ok and digit == "<" and set(text) <= {"<"}:
            return True
        if check_digit(text) == digit:
            return True
        self.issues.append(f"MRZ check digit of the {what} fails ({digit!r} read, {check_digit(text)!r} expected)")
        return False


def _document_number(number: str, digit: str) -> str:
    """The document number as read or, when only that passes its check digit, with O read as 0."""
    if check_digit(number) != digit and check_digit(number.replace("O", "0")) == digit:
        return number.replace("O", "0")
    return number


def parse_td3(line1: str, line2: str) -> Mrz:
    """A passport's two lines (44 characters each, already cleaned)."""
    line1, line2 = _fillers(_fit(line1, TD3_LENGTH)), _fillers(_fit(line2, TD3_LENGTH))
    number = _document_number(line2[0:9], _digits(line2[9]))
    nationality = line2[10:13].replace("0", "O")
    line2 = (
        number + _digits(line2[9]) + nationality + _digits(line2[13:20]) + line2[20] + _digits(line2[21:28])
        + line2[28:42] + _digits(line2[42:44])
    )  # fmt: skip
    checks = _Checks()
    checks.check("document number", line2[0:9], line2[9])
    checks.check("date of birth", line2[13:19], line2[19])
    checks.check("expiry date", line2[21:27], line2[27])
    checks.check("optional data", line2[28:42], line2[42], filler_ok=True)
    checks.check("whole zone (composite)", line2[0:10] + line2[13:20] + line2[21:43], line2[43])
    surname, given = _names(line1[5:44])
    fields = OcrFields(
        first_name=given,
        last_name=surname,
        id_number=line2[0:9].rstrip("<"),
        date_of_birth=_date(line2[13:19], future=False),
        sex=_SEX.get(line2[20], ""),
        nationality=nationality.strip("<"),
        expiry_date=_date(line2[21:27], future=True),
    )
    return Mrz(
        format="TD3",
        lines=(line1, line2),
        fields=fields,
        document_type=line1[0:2].strip("<"),
        issuing_state=line1[2:5].strip("<"),
        optional_data=line2[28:42].strip("<"),
        issues=checks.issues,
    )


def parse_td1(line1: str, line2: str, line3: str) -> Mrz:
    """An ID card's three lines (30 characters each, already cleaned)."""
    line1, line2, line3 = (_fillers(_fit(line, TD1_LENGTH)) for line in (line1, line2, line3))
    number = _document_number(line1[5:14], _digits(line1[14]))
    line1 = line1[0:5] + number + _digits(line1[14]) + line1[15:30]
    nationality = line2[15:18].replace("0", "O")
    line2 = _digits(line2[0:7]) + line2[7] + _digits(line2[8:15]) + nationality + line2[18:29] + _digits(line2[29])
    checks = _Checks()
    checks.check("document number", line1[5:14], line1[14])
    checks.check("date of birth", line2[0:6], line2[6])
    checks.check("expiry date", line2[8:14], line2[14])
    checks.check("whole zone (composite)", line1[5:30] + line2[0:7] + line2[8:15] + line2[18:29], line2[29])
    surname, given = _names(line3)
    fields = OcrFields(
        first_name=given,
        last_name=surname,
        id_number=line1[5:14].rstrip("<"),
        date_of_birth=_date(line2[0:6], future=False),
        sex=_SEX.get(line2[7], ""),
        nationality=nationality.strip("<"),
        expiry_date=_date(line2[8:14], future=True),
    )
    return Mrz(
        format="TD1",
        lines=(line1, line2, line3),
        fields=fields,
        document_type=line1[0:2].strip("<"),
        issuing_state=line1[2:5].strip("<"),
        optional_data=(line1[15:30] + line2[18:29]).strip("<"),
        issues=checks.issues,
    )


def is_mrz_line(line: str) -> bool:
    """Whether an OCR line looks like a line of a machine-readable zone (to keep it from the label parser)."""
    cleaned = _clean(line)
    return (
        _CANDIDATE.match(cleaned) is not None
        and cleaned.count("<") >= 2
        and any(abs(len(cleaned) - n) <= LENGTH_TOLERANCE for n in (TD3_LENGTH, TD1_LENGTH))
    )


def find(text: str) -> Mrz | None:
    """The machine-readable zone in OCR text (TD3 first, then TD1), or None when there is none. The best reading
    is the one with the fewest failing check digits."""
    lines = [_clean(line) for line in text.splitlines()]
    lines = [line for line in lines if line]
    found: list[Mrz] = []
    for index, line in enumerate(lines):
        if not _CANDIDATE.match(line):
            continue
        near = lambda n, line=line: abs(len(line) - n) <= LENGTH_TOLERANCE  # noqa: E731
        following = lines[index + 1 : index + 3]
        if near(TD3_LENGTH) and line[0] == "P" and following and _CANDIDATE.match(following[0]):
            if abs(len(following[0]) - TD3_LENGTH) <= LENGTH_TOLERANCE:
                found.append(parse_td3(line, following[0]))
        if near(TD1_LENGTH) and line[0] in "IAC" and len(following) == 2:
            if all(_CANDIDATE.match(f) and abs(len(f) - TD1_LENGTH) <= LENGTH_TOLERANCE for f in following):
                found.append(parse_td1(line, *following))
    if not found:
        return None
    return min(found, key=lambda mrz: len(mrz.issues))


def _field(text: str, length: int) -> str:
    from anyascii import anyascii

    value = re.sub(r"[^A-Z0-9]+", "<", anyascii(text).upper()).strip("<")
    return (value + "<" * length)[:length]


def make_td3(
    *,
    surname: str,
    given_names: str,
    document_number: str,
    nationality: str,
    date_of_birth: date,
    sex: str,
    expiry_date: date,
    issuing_state: str | None = None,
    optional_data: str = "",
) -> tuple[str, str]:
    """The two lines of a passport's zone with correct check digits (for rendered specimens and tests)."""
    names = _field(surname, 39).rstrip("<") + "<<" + _field(given_names, 39)
    line1 = "P<" + _field(issuing_state or nationality, 3) + (names + "<" * 39)[:39]
    number = _field(document_number, 9)
    dob, expiry = date_of_birth.strftime("%y%m%d"), expiry_date.strftime("%y%m%d")
    optional = _field(optional_data, 14)
    optional_check = "<" if set(optional) == {"<"} else check_digit(optional)
    sex_char = sex.upper()[:1] if sex.upper()[:1] in "MF" else "<"
    line2 = (
        number + check_digit(number) + _field(nationality, 3) + dob + check_digit(dob) + sex_char + expiry
        + check_digit(expiry) + optional + optional_check
    )  # fmt: skip
    composite = line2[0:10] + line2[13:20] + line2[21:43]
    return line1, line2 + check_digit(composite)
