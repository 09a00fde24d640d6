"""Reading PEP list files: our CSV and JSON (the API's fields), and the forms compliance teams receive lists in,
OpenSanctions' FollowTheMoney entity JSON lines and its ``targets.simple.csv``.

Pure reading, no database: ``read_rows(text, format)`` yields ``(line, fields, problem)`` per entry, where
``fields`` are domain names (``name``, ``aliases``, ``date_of_birth``, ...) and ``problem`` says why a row could
not be read (the import reports it with its line number and goes on). ``detect_format`` tells the forms apart
by their content.
"""

import csv
import io
import json
from collections.abc import Iterator

import iso3166

FORMATS = ("csv", "json", "ftm", "opensanctions-csv")
Row = tuple[int, dict | None, str]

# Column names of our CSV (the API's camelCase, snake_case, and a few everyday ones) -> domain field.
CSV_COLUMNS = {
    "name": "name",
    "fullname": "name",
    "category": "category",
    "position": "position",
    "country": "country",
    "source": "source",
    "isactive": "is_active",
    "active": "is_active",
    "additionalinfo": "additional_info",
    "aliases": "aliases",
    "alias": "aliases",
    "dateofbirth": "date_of_birth",
    "birthdate": "date_of_birth",
    "dob": "date_of_birth",
}
JSON_FIELDS = {
    "name": "name",
    "category": "category",
    "position": "position",
    "country": "country",
    "source": "source",
    "isActive": "is_active",
    "additionalInfo": "additional_info",
    "aliases": "aliases",
    "dateOfBirth": "date_of_birth",
}
OPENSANCTIONS_COLUMNS = {"id", "schema", "name", "aliases", "birth_date", "countries", "dataset"}
_TRUE = {"true", "1", "yes", "y", "active"}
_FALSE = {"false", "0", "no", "n", "inactive"}
# Characters that separate several values in one CSV cell
ALIAS_SEPARATORS = (";", "|")


class UnreadableFile(ValueError):
    """The file is not in any form we read (or not in the one asked for)."""


def _column(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _split(cell: str) -> list[str]:
    for separator in ALIAS_SEPARATORS:
        if separator in cell:
            return [part.strip() for part in cell.split(separator) if part.strip()]
    return [cell.strip()] if cell.strip() else []


def country_name(code_or_name: str) -> str:
    """A country code as its name ("sz" -> "Eswatini"); anything else as given."""
    text = (code_or_name or "").strip()
    if len(text) in (2, 3) and text.isalpha():
        try:
            return iso3166.countries.get(text).name
        except KeyError:
            return text.upper()
    return text


def _boolean(value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"isActive must be true or false, got {value!r}")


def _date(value: str) -> str:
    """An ISO date cut to what is known (FtM dates may carry a time, or be a year)."""
    text = str(value or "").strip()
    return text[:10] if len(text) >= 10 and text[4] == "-" else text


def detect_format(text: str) -> str:
    """csv, json, ftm or opensanctions-csv, by the file's content."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise UnreadableFile("The file is empty")
    if stripped[0] in "[{":
        first = stripped.splitlines()[0].strip()
        try:
            entity = json.loads(first)
        except ValueError:
            return "json"
        if isinstance(entity, dict) and "schema" in entity and "properties" in entity:
            return "ftm"
        return "json"
    header = next(csv.reader(io.StringIO(stripped)), [])
    if OPENSANCTIONS_COLUMNS <= {column.strip().lower() for column in header}:
        return "opensanctions-csv"
    return "csv"


def read_rows(text: str, format: str | None = None) -> tuple[str, Iterator[Row]]:
    """(the format, the rows) of a PEP list file's text; the format is detected when not given."""
    format = format or detect_format(text)
    if format not in FORMATS:
        raise UnreadableFile(f"Unknown format {format!r}: one of {', '.join(FORMATS)}")
    text = text.lstrip("\ufeff")
    readers = {"csv": _csv, "json": _json, "ftm": _ftm, "opensanctions-csv": _opensanctions_csv}
    return format, readers[format](text)


# ---------------------------------------------------------------- our CSV and JSON


def _csv(text: str) -> Iterator[Row]:
    reader = csv.DictReader(io.StringIO(text))
    columns = {name: CSV_COLUMNS.get(_column(name)) for name in reader.fieldnames or []}
    if "name" not in columns.values():
        raise UnreadableFile("The CSV has no name column (columns: name, category, position, country, ...)")
    for record in reader:
        line = reader.line_num
        fields: dict = {}
        try:
            for column, field in columns.items():
                value = (record.get(column) or "").strip()
                if field is None or value == "":
                    continue
                if field == "is_active":
                    fields[field] = _boolean(value)
                elif field == "aliases":
                    fields[field] = _split(value)
                elif field == "additional_info":
                    fields[field] = json.loads(value)
                else:
                    fields[field] = value
        except ValueError as exc:
            yield line, fields, str(exc) if not isinstance(exc, json.JSONDecodeError) else f"additionalInfo: {exc}"
            continue
        yield line, fields, ""


def _json_items(text: str) -> Iterator[tuple[int, object]]:
    """Each element of the top-level array with the line it starts on (or of ``{"peps": [...]}``)."""
    decoder = json.JSONDecoder()
    start = len(text) - len(text.lstrip())
    if text[start : start + 1] == "{":
        try:
            document = json.loads(text)
        except ValueError as exc:
            raise UnreadableFile(f"Not JSON: {exc}") from None
        items = document.get("peps") if isinstance(document, dict) else None
        if not isinstance(items, list):
            raise UnreadableFile('A JSON file holds an array of PEPs, or {"peps": [...]}')
        marker = text.find("[", text.find('"peps"'))
        text, start = text, marker
    if text[start : start + 1] != "[":
        raise UnreadableFile('A JSON file holds an array of PEPs, or {"peps": [...]}')
    index = start + 1
    while True:
        while index < len(text) and text[index] in " \t\r\n,":
            index += 1
        if index >= len(text):
            raise UnreadableFile("The JSON array is not closed")
        if text[index] == "]":
            return
        try:
            item, end = decoder.raw_decode(text, index)
        except ValueError as exc:
            raise UnreadableFile(f"Not JSON at line {text.count(chr(10), 0, index) + 1}: {exc.msg}") from None
        yield text.count("\n", 0, index) + 1, item
        index = end


def _json(text: str) -> Iterator[Row]:
    for line, item in _json_items(text):
        if not isinstance(item, dict):
            yield line, None, "Each PEP is a JSON object"
            continue
        unknown = sorted(set(item) - set(JSON_FIELDS))
        fields = {JSON_FIELDS[k]: v for k, v in item.items() if k in JSON_FIELDS and v is not None}
        if unknown:
            yield line, fields, f"Unknown field(s): {', '.join(unknown)}"
            continue
        if "is_active" in fields:
            try:
                fields["is_active"] = _boolean(fields["is_active"])
            except ValueError as exc:
                yield line, fields, str(exc)
                continue
        if isinstance(fields.get("aliases"), str):
            fields["aliases"] = _split(fields["aliases"])
        yield line, fields, ""


# ---------------------------------------------------------------- OpenSanctions


def _first(values) -> str:
    for value in values or ():
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def ftm_fields(entity: dict) -> dict | None:
    """The PEP fields of a FollowTheMoney Person entity (None for other schemata)."""
    if entity.get("schema") != "Person":
        return None
    props = entity.get("properties") or {}
    names = [n.strip() for n in props.get("name") or [] if isinstance(n, str) and n.strip()]
    if not names:
        parts = [_first(props.get(key)) for key in ("firstName", "secondName", "middleName", "lastName")]
        names = [" ".join(p for p in parts if p)] if any(parts) else []
    others = [*names[1:], *(props.get("alias") or []), *(props.get("previousName") or [])]
    datasets = entity.get("datasets") or ([entity["dataset"]] if entity.get("dataset") else [])
    countries = props.get("country") or props.get("citizenship") or props.get("nationality") or []
    fields = {
        "name": names[0] if names else "",
        "aliases": [a.strip() for a in others if isinstance(a, str) and a.strip()],
        "date_of_birth": _date(_first(props.get("birthDate"))),
        "country": country_name(_first(countries)),
        "position": _first(props.get("position")),
        "source": ", ".join(datasets)[:200],
    }
    info = {"opensanctionsId": entity.get("id")} if entity.get("id") else {}
    if props.get("topics"):
        info["topics"] = props["topics"]
    if len(countries) > 1:
        info["countries"] = [country_name(c) for c in countries]
    fields["additional_info"] = info
    return {key: value for key, value in fields.items() if value not in ("", None)}


def _ftm(text: str) -> Iterator[Row]:
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            entity = json.loads(raw)
        except ValueError as exc:
            yield line, None, f"Not a JSON entity: {exc.msg}"
            continue
        if not isinstance(entity, dict):
            yield line, None, "Not a JSON entity"
            continue
        fields = ftm_fields(entity)
        if fields is None:
            continue  # companies, relations, ...: not persons
        yield line, fields, ""


def _opensanctions_csv(text: str) -> Iterator[Row]:
    reader = csv.DictReader(io.StringIO(text))
    for record in reader:
        if (record.get("schema") or "").strip() not in ("Person", ""):
            continue
        countries = _split(record.get("countries") or "")
        fields = {
            "name": (record.get("name") or "").strip(),
            "aliases": _split(record.get("aliases") or ""),
            "date_of_birth": _date(_first(_split(record.get("birth_date") or ""))),
            "country": country_name(countries[0]) if countries else "",
            "source": (record.get("dataset") or "").strip()[:200],
        }
        info = {"opensanctionsId": record["id"].strip()} if (record.get("id") or "").strip() else {}
        if len(countries) > 1:
            info["countries"] = [country_name(c) for c in countries]
        fields["additional_info"] = info
        yield reader.line_num, {k: v for k, v in fields.items() if v not in ("", None)}, ""


def with_defaults(rows: Iterator[Row], *, category: str | None = None, source: str | None = None) -> Iterator[Row]:
    """The rows, with ``category`` and ``source`` given to those that carry none (``--category``, ``--source``)."""
    for line, fields, problem in rows:
        if fields is not None:
            if category and not fields.get("category"):
                fields["category"] = category
            if source and not fields.get("source"):
                fields["source"] = source
        yield line, fields, problem
