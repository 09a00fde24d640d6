"""OFAC's SDN list in its legacy CSV: ``sdn.csv`` with ``alt.csv`` (other names) and ``add.csv`` (addresses).

No header; ``-0-`` (with or without a trailing space) means empty. An individual's name is ``LAST, First``
(``DELOS REYES, Feliciano Semborio, Jr.``) and becomes ``First Last``; dates of birth and nationalities are
only in the remarks (``DOB 12 Jan 1960; alt. DOB 1961; nationality Syria; citizen Iraq``).
"""

import csv
import datetime
import io
import re
from typing import IO

from compliance.sanctions.formats.common import (
    Alias,
    ListFileProblem,
    ParsedEntry,
    ProgressFn,
    country_code,
    tidy,
    unique,
    year_range,
)

SDN_COLUMNS = 12  # ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag,
# Vess_owner, Remarks
ALT_COLUMNS = 5  # ent_num, alt_num, alt_type, alt_name, alt_remarks
ADD_COLUMNS = 6  # ent_num, add_num, address, city_state_zip, country, add_remarks
_TYPES = {"individual": "INDIVIDUAL", "vessel": "VESSEL", "aircraft": "AIRCRAFT", "": "ENTITY"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}
_MONTHS = {m: i for i, m in enumerate(("jan feb mar apr may jun jul aug sep oct nov dec").split(), start=1)}


def _field(value: str) -> str:
    value = tidy(value)
    return "" if value == "-0-" else value


def _rows(handle: IO[bytes], *, file: str, columns: int) -> list[list[str]]:
    data = handle.read()
    if not data.strip():
        raise ListFileProblem("The file is empty.", file=file)
    if b"\x00" in data:
        raise ListFileProblem("Not an OFAC CSV file: it holds binary data.", file=file)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # the legacy files were long published in Windows-1252
        text = data.decode("cp1252", errors="replace")
    # OFAC ends its legacy files with a DOS end-of-file character
    text = text.rstrip().rstrip("\x1a")
    rows = []
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        for row in reader:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != columns:
                where = f"line {reader.line_num}"
                raise ListFileProblem(
                    f"Not OFAC's legacy format, or cut off: {where} has {len(row)} fields, not {columns}.", file=file
                )
            if not row[0].strip().isdigit():
                raise ListFileProblem(
                    f"Not OFAC's legacy format: line {reader.line_num} does not start with an entry number.",
                    file=file,
                )
            rows.append(row)
    except csv.Error as exc:
        raise ListFileProblem(f"The file is cut off or not CSV (line {reader.line_num}: {exc}).", file=file) from None
    return rows


def reading_order(name: str) -> str:
    """``LAST, First Middle[, Jr.]`` as ``First Middle LAST Jr.``; a name without a comma as it is."""
    last, comma, rest = name.partition(",")
    if not comma:
        return tidy(name)
    parts = [tidy(p) for p in rest.split(",") if tidy(p)]
    suffixes = [p for p in parts[1:] if p.casefold() in _SUFFIXES]
    given = " ".join([parts[0], *(p for p in parts[1:] if p not in suffixes)]) if parts else ""
    return tidy(" ".join([given, tidy(last), *suffixes]))


def _one_date(text: str) -> tuple[int, int | None, int | None] | None:
    """(year, month, day) of ``14 Jun 1975``, ``Jun 1975`` or ``1975``; None when it is none of those."""
    words = text.replace(",", " ").split()
    try:
        if len(words) == 3:
            day, month, year = int(words[0]), _MONTHS[words[1][:3].casefold()], int(words[2])
            datetime.date(year, month, day)
            return year, month, day
        if len(words) == 2:
            return int(words[1]), _MONTHS[words[0][:3].casefold()], None
        if len(words) == 1 and len(words[0]) == 4:
            return int(words[0]), None, None
    except (KeyError, ValueError):
        return None
    return None


def _format(date: tuple[int, int | None, int | None]) -> str:
    year, month, day = date
    return "-".join([f"{year:04d}"] + ([f"{month:02d}"] if month else []) + ([f"{day:02d}"] if day else []))


def parse_dob(text: str) -> str | None:
    """A remark's date of birth: ``14 Jun 1975`` -> ``1975-06-14``, ``Apr 1963`` -> ``1963-04``, ``circa 1937``
    -> ``1937``, ``01 Jan 1946 to 31 Dec 1948`` -> ``1946/1948`` (a range of years), a month's range that month."""
    text = re.sub(r"^(circa|approximately|approx\.?)\s+", "", tidy(text).rstrip("."), flags=re.IGNORECASE)
    start_text, to, end_text = text.partition(" to ")
    start = _one_date(start_text)
    if start is None:
        return None
    if not to:
        return _format(start)
    end = _one_date(end_text)
    if end is None:
        return _format(start)
    if start[0] == end[0] and start[1] and start[1] == end[1]:
        return _format((start[0], start[1], None))
    return year_range(start[0], end[0])


_REMARK = re.compile(r"^(?:alt\. )?(DOB|nationality|citizen) (.+)$")
_AKA = re.compile(r"^[afn]\.k\.a\.,? '(.+)'$")


def parse_remarks(remarks: str) -> tuple[list[str], list[str], list[str]]:
    """Dates of birth, nationalities (ISO codes) and names (``a.k.a. 'X'``) found in an SDN row's remarks."""
    dates, countries, names = [], [], []
    for segment in remarks.split(";"):
        segment = tidy(segment)
        segment = segment[:-1] if segment.endswith(".") else segment
        match = _REMARK.match(segment)
        if match:
            kind, value = match.groups()
            if kind == "DOB":
                dates.append(parse_dob(value))
            else:
                countries.append(country_code(value))
            continue
        aka = _AKA.match(segment)
        if aka:
            names.append(tidy(aka.group(1)))
    return unique(dates), unique(countries), unique(names)


def read_ofac(
    sdn: IO[bytes], alt: IO[bytes] | None = None, add: IO[bytes] | None = None, progress: ProgressFn | None = None
) -> list[ParsedEntry]:
    """Every SDN entry, with its other names from ``alt`` and its addresses from ``add`` when given."""
    entries: dict[str, ParsedEntry] = {}
    for row in _rows(sdn, file="file", columns=SDN_COLUMNS):
        ent_num, name, sdn_type, program, title, call_sign, vess_type, tonnage, grt, flag, owner, remarks = (
            _field(v) for v in row
        )
        if sdn_type.casefold() not in _TYPES:
            raise ListFileProblem(f"Entry {ent_num} has an unknown type {sdn_type!r}.")
        if not name:
            raise ListFileProblem(f"Entry {ent_num} has no name.")
        entry_type = _TYPES[sdn_type.casefold()]
        dates, countries, remark_names = parse_remarks(remarks)
        details = {
            "title": title,
            "call_sign": call_sign,
            "vessel_type": vess_type,
            "tonnage": tonnage,
            "gross_registered_tonnage": grt,
            "vessel_flag": flag,
            "vessel_owner": owner,
            "remarks": remarks,
        }
        entries[ent_num] = ParsedEntry(
            publisher_id=ent_num,
            reference=ent_num,
            entry_type=entry_type,
            name=reading_order(name) if entry_type == "INDIVIDUAL" else name,
            aliases=[Alias(name=n) for n in remark_names],
            dates_of_birth=dates if entry_type == "INDIVIDUAL" else [],
            nationalities=countries,
            programs=unique(tidy(p.strip("[] ")) for p in program.split("] [")),
            details={key: value for key, value in details.items() if value},
        )
        if progress and len(entries) % 1000 == 0:
            progress(len(entries))
    if not entries:
        raise ListFileProblem("The file has no entries.")
    if alt is not None:
        for row in _rows(alt, file="alt", columns=ALT_COLUMNS):
            entry = entries.get(row[0].strip())
            name = _field(row[3])
            if entry is None or not name:
                continue
            kind = _field(row[2]).casefold() or "aka"
            alias = Alias(name=reading_order(name) if entry.entry_type == "INDIVIDUAL" else name, kind=kind)
            entry.aliases = unique([*entry.aliases, alias])
    if add is not None:
        for row in _rows(add, file="add", columns=ADD_COLUMNS):
            entry = entries.get(row[0].strip())
            if entry is None:
                continue
            address = ", ".join(p for p in (_field(v) for v in row[2:5]) if p)
            if address:
                entry.details.setdefault("addresses", []).append(address)
    for entry in entries.values():
        # one alias per name (the remarks repeat alt.csv), none written as the name itself
        seen = {entry.name.casefold()}
        entry.aliases = [a for a in entry.aliases if not (a.name.casefold() in seen or seen.add(a.name.casefold()))]
    return list(entries.values())
