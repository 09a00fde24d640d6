"""What every reader produces, and the small parsing helpers they share (countries, dates, whitespace)."""

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from names.countries import normalise_country

# called as progress(parsed_so_far); readers call it every few hundred entries
ProgressFn = Callable[[int], None]

GOOD = "GOOD"
LOW = "LOW"


class ListFileProblem(ValueError):
    """A file a reader cannot take; ``file`` names which one (``file``, ``alt``, ``add``) and ``str()`` why."""

    def __init__(self, reason: str, *, file: str = "file"):
        super().__init__(reason)
        self.reason = reason
        self.file = file


@dataclass(frozen=True)
class Alias:
    name: str
    quality: str = GOOD  # GOOD or LOW (the UN's quality; OFAC's and FtM's weak aliases are LOW)
    kind: str = "aka"  # aka, fka (formerly known as), nka (now known as)
    date_of_birth: str = ""  # the UN gives some aliases a date of birth of their own
    note: str = ""

    def as_dict(self) -> dict[str, str]:
        extra = {"date_of_birth": self.date_of_birth, "note": self.note}
        return {"name": self.name, "quality": self.quality, "kind": self.kind} | {k: v for k, v in extra.items() if v}


@dataclass
class ParsedEntry:
    """One listed party as its publisher describes it, in the product's terms."""

    publisher_id: str
    reference: str
    entry_type: str  # INDIVIDUAL, ENTITY, VESSEL, AIRCRAFT
    name: str
    aliases: list[Alias] = field(default_factory=list)
    dates_of_birth: list[str] = field(default_factory=list)  # YYYY-MM-DD, YYYY-MM, YYYY, YYYY/YYYY
    nationalities: list[str] = field(default_factory=list)  # ISO alpha-2
    programs: list[str] = field(default_factory=list)
    listed_on: datetime.date | None = None
    details: dict[str, Any] = field(default_factory=dict)


def tidy(text: str | None) -> str:
    """Whitespace collapsed and stripped (publishers wrap long names over lines and pad fields)."""
    return " ".join((text or "").split())


def unique(values) -> list:
    """The values without repeats or empties, first occurrence kept (the publishers repeat themselves)."""
    seen = set()
    out = []
    for value in values:
        if value and value not in seen:
            seen.add(value)
            out.append(value)
    return out


# How publishers write countries that the ISO names and everyday short forms do not cover.
_COUNTRY_FORMS = {
    "democratic people's republic of korea": "KP",
    "state of palestine": "PS",
    "palestinian": "PS",
    "possibly palestinian": "PS",
    "united republic of tanzania": "TZ",
}


def country_code(text: str | None) -> str | None:
    """ISO alpha-2 for a country as a list writes it: a name, a code, ``Korea, North``, ``Congo, Democratic
    Republic of the``; None when it names no country (``former Soviet Union``)."""
    value = tidy(text).rstrip(".")
    if not value:
        return None
    known = _COUNTRY_FORMS.get(value.casefold()) or normalise_country(value)
    if known:
        return known
    if "," in value:
        head, _, tail = value.partition(",")
        return normalise_country(f"{tail} {head}") or normalise_country(head)
    return None


_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")


def iso_date(text: str | None) -> datetime.date | None:
    """A ``YYYY-MM-DD`` date at the start of ``text`` (publishers add times and zones), or None."""
    match = _ISO_DATE.match(tidy(text))
    if not match:
        return None
    try:
        return datetime.date(*(int(g) for g in match.groups()))
    except ValueError:
        return None


def partial_date(text: str | None) -> str | None:
    """``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY`` as written (a real date, an ISO partial), else None."""
    value = tidy(text)
    match = re.match(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?", value)
    if not match:
        return None
    year, month, day = match.groups()
    try:
        datetime.date(int(year), int(month or 1), int(day or 1))
    except ValueError:
        return None
    return "-".join(part for part in (year, month, day) if part)


def year_range(start: int, end: int) -> str:
    """Years ``start`` to ``end`` as the index reads them: ``YYYY`` for one year, ``YYYY/YYYY`` for more."""
    if end < start:
        start, end = end, start
    return f"{start}" if start == end else f"{start}/{end}"
