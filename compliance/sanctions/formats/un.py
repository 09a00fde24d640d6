"""The UN Security Council Consolidated List in the XML the UN publishes (``CONSOLIDATED_LIST``).

Read with defusedxml, streaming: a DTD (and so any entity, the billion laughs among them) is refused before
anything is expanded, and a file cut off anywhere fails on its unclosed elements.
"""

import xml.etree.ElementTree as ElementTree
from typing import IO

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from compliance.sanctions.formats.common import (
    GOOD,
    LOW,
    Alias,
    ListFileProblem,
    ParsedEntry,
    ProgressFn,
    country_code,
    iso_date,
    partial_date,
    tidy,
    unique,
    year_range,
)

ROOT = "CONSOLIDATED_LIST"
NAME_PARTS = ("FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME")
# expat's codes for a document that stopped mid-way: no element yet, a token, a character or CDATA left open
_NO_ELEMENTS = 3
_ENDED_EARLY = {_NO_ELEMENTS, 5, 6, 20}
_QUALITY = {"good": (GOOD, "aka"), "low": (LOW, "aka"), "a.k.a.": (GOOD, "aka"), "f.k.a.": (GOOD, "fka")}


def _text(element, tag: str) -> str:
    return tidy(element.findtext(tag))


def _values(element, tag: str) -> list[str]:
    """The ``VALUE`` children of each ``tag`` child (NATIONALITY, DESIGNATION, TITLE, LIST_TYPE...)."""
    return [tidy(v.text) for child in element.findall(tag) for v in child.findall("VALUE") if tidy(v.text)]


def _aliases(element, tag: str) -> list[Alias]:
    """Every alias as published: one name may come twice, each time with its own date or place of birth."""
    aliases = []
    for alias in element.findall(tag):
        name = _text(alias, "ALIAS_NAME")
        if not name:
            continue
        quality, kind = _QUALITY.get(_text(alias, "QUALITY").casefold(), (GOOD, "aka"))
        note = ", ".join(p for p in (_text(alias, t) for t in ("CITY_OF_BIRTH", "COUNTRY_OF_BIRTH", "NOTE")) if p)
        born = partial_date(_text(alias, "DATE_OF_BIRTH")) or ""
        aliases.append(Alias(name=name, quality=quality, kind=kind, date_of_birth=born, note=note))
    return aliases


def _dates_of_birth(element, aliases: list[Alias]) -> list[str]:
    """Exact dates (``YYYY-MM-DD``), years, and ``BETWEEN`` ranges (``YYYY/YYYY``); ``APPROXIMATELY`` a year is
    that year (the matcher already tolerates a year either side). The dates the aliases were used with count
    too: a person screened under an alias gives the date that went with it."""
    dates = []
    for dob in element.findall("INDIVIDUAL_DATE_OF_BIRTH"):
        start, end = _text(dob, "FROM_YEAR"), _text(dob, "TO_YEAR")
        if start.isdigit() and end.isdigit():
            dates.append(year_range(int(start), int(end)))
            continue
        value = partial_date(_text(dob, "DATE")) or partial_date(_text(dob, "YEAR"))
        if value:
            dates.append(value)
    return unique([*dates, *(alias.date_of_birth for alias in aliases)])


def _places(element, tag: str, parts: tuple[str, ...]) -> list[str]:
    places = []
    for place in element.findall(tag):
        text = ", ".join(p for p in (_text(place, part) for part in parts) if p)
        if text:
            places.append(text)
    return places


def _documents(element) -> list[str]:
    documents = []
    for document in element.findall("INDIVIDUAL_DOCUMENT"):
        text = " ".join(
            p for p in (_text(document, t) for t in ("TYPE_OF_DOCUMENT", "NUMBER", "ISSUING_COUNTRY", "NOTE")) if p
        )
        if text:
            documents.append(text)
    return documents


_ADDRESS = ("STREET", "CITY", "STATE_PROVINCE", "ZIP_CODE", "COUNTRY", "NOTE")


def _entry(element, entry_type: str) -> ParsedEntry:
    dataid = _text(element, "DATAID")
    if not dataid:
        raise ListFileProblem(f"An {element.tag} has no DATAID.")
    if entry_type == "INDIVIDUAL":
        name = tidy(" ".join(_text(element, part) for part in NAME_PARTS))
        aliases = _aliases(element, "INDIVIDUAL_ALIAS")
        addresses = _places(element, "INDIVIDUAL_ADDRESS", _ADDRESS)
    else:
        name = _text(element, "FIRST_NAME")
        aliases = _aliases(element, "ENTITY_ALIAS")
        addresses = _places(element, "ENTITY_ADDRESS", _ADDRESS)
    if not name:
        raise ListFileProblem(f"The {element.tag} with DATAID {dataid} has no name.")
    details = {
        "comments": _text(element, "COMMENTS1"),
        "name_original_script": _text(element, "NAME_ORIGINAL_SCRIPT"),
        "gender": _text(element, "GENDER"),
        "titles": _values(element, "TITLE"),
        "designations": _values(element, "DESIGNATION"),
        "addresses": addresses,
        "places_of_birth": _places(element, "INDIVIDUAL_PLACE_OF_BIRTH", ("CITY", "STATE_PROVINCE", "COUNTRY")),
        "documents": _documents(element),
        "last_updated": _values(element, "LAST_DAY_UPDATED"),
    }
    return ParsedEntry(
        publisher_id=dataid,
        reference=_text(element, "REFERENCE_NUMBER") or dataid,
        entry_type=entry_type,
        name=name,
        aliases=aliases,
        dates_of_birth=_dates_of_birth(element, aliases) if entry_type == "INDIVIDUAL" else [],
        nationalities=unique(country_code(v) for v in _values(element, "NATIONALITY")),
        programs=unique([_text(element, "UN_LIST_TYPE")]),
        listed_on=iso_date(_text(element, "LISTED_ON")),
        details={key: value for key, value in details.items() if value},
    )


def read_un(handle: IO[bytes], progress: ProgressFn | None = None) -> list[ParsedEntry]:
    """Every individual and entity of a UN consolidated list file."""
    entries: list[ParsedEntry] = []
    depth = 0
    try:
        for event, element in iterparse(handle, events=("start", "end"), forbid_dtd=True):
            if event == "start":
                if depth == 0 and element.tag != ROOT:
                    raise ListFileProblem(f"Not a UN consolidated list: the document is <{element.tag}>, not <{ROOT}>.")
                depth += 1
                continue
            depth -= 1
            # entries sit at depth 2 (CONSOLIDATED_LIST / INDIVIDUALS / INDIVIDUAL)
            if depth == 2 and element.tag in ("INDIVIDUAL", "ENTITY"):
                entries.append(_entry(element, element.tag))
                element.clear()
                if progress and len(entries) % 500 == 0:
                    progress(len(entries))
    except DefusedXmlException as exc:
        raise ListFileProblem(f"The XML declares a DTD or entities, which a list never needs: {exc}") from None
    except ElementTree.ParseError as exc:
        seen_nothing = not entries and depth == 0
        if getattr(exc, "code", None) == _NO_ELEMENTS and seen_nothing:
            raise ListFileProblem("The file is empty.") from None
        if getattr(exc, "code", None) in _ENDED_EARLY:
            raise ListFileProblem(f"The file is cut off: it ends before the list does ({exc}).") from None
        raise ListFileProblem(f"Not a UN consolidated list: the XML cannot be read ({exc}).") from None
    if not entries:
        raise ListFileProblem("The list has no individuals and no entities.")
    return entries
