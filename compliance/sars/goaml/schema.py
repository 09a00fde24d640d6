"""Validating a goAML report against the unit's XSD (``GOAML_SCHEMA_PATH``) with lxml.

The schema is parsed once per file version (path and modification time) and
shared; a report is parsed without entity expansion or network access, so a
crafted narrative cannot make the validator fetch or expand anything. Errors
come back as ``"line 12: <libxml2's message>"``, line numbers of the export
as it is downloaded.
"""

import threading
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from lxml import etree

_lock = threading.Lock()
_schemas: dict[tuple[str, int], etree.XMLSchema] = {}
# At most this many errors are reported: the first ones explain the rest.
MAX_ERRORS = 50


@dataclass(frozen=True)
class SchemaCheck:
    """The outcome of validating one report: whether a schema is configured, its name, and the errors."""

    configured: bool
    schema_name: str = ""
    errors: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.configured and not self.errors


def _report_parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def load_schema(path: Path) -> etree.XMLSchema:
    """The XSD at ``path``, parsed once per version of the file; ImproperlyConfigured when it is not an XSD."""
    path = Path(path)
    try:
        key = (str(path.resolve()), path.stat().st_mtime_ns)
    except OSError as exc:
        raise ImproperlyConfigured(f"GOAML_SCHEMA_PATH: cannot read {path}: {exc}") from None
    with _lock:
        schema = _schemas.get(key)
        if schema is None:
            try:
                # local includes and imports beside the XSD are allowed; the network is not
                document = etree.parse(str(path), etree.XMLParser(no_network=True, resolve_entities=False))
                schema = etree.XMLSchema(document)
            except (etree.XMLSyntaxError, etree.XMLSchemaParseError) as exc:
                raise ImproperlyConfigured(f"GOAML_SCHEMA_PATH: {path} is not a valid XML schema: {exc}") from None
            _schemas.clear()  # one unit's schema at a time; an edited file replaces the old version
            _schemas[key] = schema
        return schema


def schema_errors(report: bytes, schema: etree.XMLSchema) -> list[str]:
    """Why ``report`` does not validate against ``schema``, as ``line N: message`` (empty when it does)."""
    try:
        document = etree.fromstring(report, _report_parser()).getroottree()
    except etree.XMLSyntaxError as exc:
        return [f"line {exc.lineno}: {exc.msg}"]
    with _lock:  # an XMLSchema's error log belongs to the schema object: one validation at a time
        if schema.validate(document):
            return []
        return [f"line {error.line}: {error.message}" for error in list(schema.error_log)[:MAX_ERRORS]]


def check_report(report: bytes) -> SchemaCheck:
    """``report`` against the configured unit's XSD; ``configured=False`` when GOAML_SCHEMA_PATH is unset."""
    path = settings.GOAML_SCHEMA_PATH
    if not path:
        return SchemaCheck(configured=False)
    return SchemaCheck(configured=True, schema_name=Path(path).name, errors=schema_errors(report, load_schema(path)))
