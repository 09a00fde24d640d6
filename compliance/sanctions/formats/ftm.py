"""FollowTheMoney JSON lines, as OpenSanctions exports the EU, UK and other lists: one entity per line.

Person, Organization, Company, LegalEntity, Vessel and Airplane are listed parties; a Sanction (a line of
its own, or nested in the party's ``sanctions``) gives their programme and listing date. Other schemata
(addresses, identifications, ownerships) are skipped.
"""

import json
from typing import IO, Any

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
)

SCHEMATA = {
    "Person": "INDIVIDUAL",
    "Organization": "ENTITY",
    "Company": "ENTITY",
    "LegalEntity": "ENTITY",
    "Vessel": "VESSEL",
    "Airplane": "AIRCRAFT",
}
MAX_LINE = 5 * 1024 * 1024  # one entity; a longer line is not an export of a list


def _strings(properties: dict, *names: str) -> list[str]:
    values = []
    for name in names:
        for value in properties.get(name) or []:
            if isinstance(value, str) and tidy(value):
                values.append(tidy(value))
    return values


def _sanction_facts(sanctions: list[dict]) -> tuple[list[str], list]:
    programs, dates = [], []
    for sanction in sanctions:
        properties = sanction.get("properties") or {}
        programs += _strings(properties, "program", "programId")
        dates += [iso_date(d) for d in _strings(properties, "listingDate", "startDate")]
    return programs, [d for d in dates if d]


def _entry(entity: dict, sanctions: list[dict]) -> ParsedEntry:
    entity_id = entity["id"]
    entry_type = SCHEMATA[entity["schema"]]
    properties = entity.get("properties") or {}
    names = _strings(properties, "name")
    if not names:
        parts = _strings(properties, "firstName", "secondName", "middleName", "fatherName", "lastName")
        names = [" ".join(parts)] if parts else []
    if not names:
        raise ListFileProblem(f"The {entity['schema']} {entity_id} has no name.")
    aliases = [Alias(name=n) for n in names[1:]]
    aliases += [Alias(name=n) for n in _strings(properties, "alias")]
    aliases += [Alias(name=n, quality=LOW) for n in _strings(properties, "weakAlias")]
    aliases += [Alias(name=n, quality=GOOD, kind="fka") for n in _strings(properties, "previousName")]
    seen = {names[0].casefold()}
    aliases = [a for a in aliases if not (a.name.casefold() in seen or seen.add(a.name.casefold()))]
    if entry_type == "INDIVIDUAL":
        countries = _strings(properties, "nationality", "citizenship")
    else:
        countries = _strings(properties, "country", "jurisdiction", "flag")
    nested = [s for s in properties.get("sanctions") or [] if isinstance(s, dict)]
    programs, listing_dates = _sanction_facts([*nested, *sanctions])
    programs += _strings(properties, "program", "programId")
    listing_dates += [d for d in (iso_date(v) for v in _strings(properties, "createdAt")) if d]
    details = {
        "schema": entity["schema"],
        "topics": _strings(properties, "topics"),
        "addresses": _strings(properties, "address"),
        "notes": _strings(properties, "notes"),
        "positions": _strings(properties, "position"),
        "identifiers": _strings(
            properties, "idNumber", "passportNumber", "registrationNumber", "imoNumber", "taxNumber"
        ),
        "source_urls": _strings(properties, "sourceUrl"),
    }
    return ParsedEntry(
        publisher_id=entity_id,
        reference=entity_id,
        entry_type=entry_type,
        name=names[0],
        aliases=aliases,
        dates_of_birth=unique(partial_date(d) for d in _strings(properties, "birthDate"))
        if entry_type == "INDIVIDUAL"
        else [],
        nationalities=unique(country_code(c) for c in countries),
        programs=unique(programs),
        listed_on=min(listing_dates) if listing_dates else None,
        details={key: value for key, value in details.items() if value},
    )


def _entity(line: bytes, number: int, last: bool) -> dict[str, Any]:
    try:
        entity = json.loads(line)
    except RecursionError:
        raise ListFileProblem(f"Line {number} nests deeper than an entity can.") from None
    except (ValueError, UnicodeDecodeError) as exc:
        if last:
            raise ListFileProblem(f"The file is cut off: its last line ({number}) is not whole JSON.") from None
        raise ListFileProblem(f"Not FollowTheMoney JSON lines: line {number} is not JSON ({exc}).") from None
    if (
        not isinstance(entity, dict)
        or not isinstance(entity.get("id"), str)
        or not isinstance(entity.get("schema"), str)
    ):
        raise ListFileProblem(f"Not FollowTheMoney JSON lines: line {number} is not an entity with an id and schema.")
    if not isinstance(entity.get("properties", {}), dict):
        raise ListFileProblem(f"Line {number}: an entity's properties must be an object.")
    return entity


def read_ftm(handle: IO[bytes], progress: ProgressFn | None = None) -> list[ParsedEntry]:
    """Every listed party of a FollowTheMoney JSON-lines export, with its sanctions' programmes and dates."""
    data = handle.read()
    if not data.strip():
        raise ListFileProblem("The file is empty.")
    lines = data.split(b"\n")
    cut_candidate = not data.endswith(b"\n")
    parties: list[dict] = []
    sanctions: dict[str, list[dict]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise ListFileProblem(f"Line {number} is longer than an entity can be.")
        entity = _entity(line, number, last=cut_candidate and number == len(lines))
        if entity["schema"] in SCHEMATA:
            parties.append(entity)
        elif entity["schema"] == "Sanction":
            for target in (entity.get("properties") or {}).get("entity") or []:
                target_id = target.get("id") if isinstance(target, dict) else target
                if isinstance(target_id, str):
                    sanctions.setdefault(target_id, []).append(entity)
    if not parties:
        raise ListFileProblem(
            "The file lists no Person, Organization, Company, LegalEntity, Vessel or Airplane entities."
        )
    entries = {}
    for done, entity in enumerate(parties, start=1):
        # an export may repeat an entity; the last line wins, as in a later statement of the same id
        entries[entity["id"]] = _entry(entity, sanctions.get(entity["id"], []))
        if progress and done % 1000 == 0:
            progress(done)
    return list(entries.values())
