"""PEP list files: read into rows, and staged between a preview and its confirmation.

The admin site previews an upload (a dry run of ``pep_import``), keeps the file in storage under a signed
ticket, and imports it when the officer confirms; ``import_peps`` reads a file from disk with the same reader.
"""

import uuid
from dataclasses import dataclass

from django.core import signing
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from backoffice.services import Actor
from compliance.peps.errors import PepImportExpired, UnreadablePepFile
from compliance.peps.formats import Row, UnreadableFile, read_rows, with_defaults
from compliance.peps.models.pep import canonical_category
from compliance.peps.services.pep import ImportResult, pep_import

TICKET_SALT = "compliance.pep-import"
TICKET_SECONDS = 60 * 60


@dataclass(frozen=True)
class StagedImport:
    """A previewed upload: what it would do, and the ticket that imports it."""

    preview: ImportResult
    entries: int
    format: str
    filename: str
    ticket: str


def pep_file_rows(
    *, data: bytes, format: str | None = None, category: str | None = None, source: str | None = None
) -> tuple[str, list[Row]]:
    """The rows of a list file (its format detected unless given), with the defaults for rows that carry none."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UnreadablePepFile("The file cannot be read", details={"file": ["The file is not UTF-8 text."]}) from None
    try:
        format, rows = read_rows(text, format or None)
        return format, list(with_defaults(rows, category=canonical_category(category or ""), source=source or None))
    except UnreadableFile as exc:
        raise UnreadablePepFile("The file cannot be read", details={"file": [str(exc)]}) from None


def pep_import_stage(
    *, data: bytes, filename: str, actor: Actor, format: str | None = None, category: str = "", source: str = ""
) -> StagedImport:
    """Check the file as an import would (nothing written), then keep it for ``pep_import_confirm``."""
    format, rows = pep_file_rows(data=data, format=format, category=category, source=source)
    preview = pep_import(rows=rows, actor=actor, dry_run=True)
    stored = default_storage.save(f"pep-imports/{uuid.uuid4().hex}.txt", ContentFile(data))
    ticket = signing.dumps(
        {"path": stored, "format": format, "category": category, "source": source, "filename": filename},
        salt=TICKET_SALT,
    )
    return StagedImport(preview=preview, entries=len(rows), format=format, filename=filename, ticket=ticket)


def pep_import_confirm(*, ticket: str, actor: Actor) -> tuple[ImportResult, str]:
    """Import a staged file once: the stored copy goes whatever happens. Answers the result and the file's name."""
    try:
        staged = signing.loads(ticket, salt=TICKET_SALT, max_age=TICKET_SECONDS)
    except signing.BadSignature:
        raise PepImportExpired() from None
    try:
        with default_storage.open(staged["path"]) as handle:
            data = handle.read()
    except OSError:
        raise PepImportExpired("This preview was already imported or has expired.") from None
    try:
        _, rows = pep_file_rows(
            data=data, format=staged["format"], category=staged["category"], source=staged["source"]
        )
        return pep_import(rows=rows, actor=actor), staged["filename"]
    finally:
        default_storage.delete(staged["path"])
