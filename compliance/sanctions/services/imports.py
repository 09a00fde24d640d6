"""Importing a list: one file (OFAC: three) read whole, compared with the list as it stands, and written as
its next version in one transaction, or not at all.

Entries are followed by the publisher's id. An entry is ``added`` when its id is new to the list (or comes
back after a removal), ``changed`` when what screening reads differs (``content_hash``), ``removed`` when
the file no longer has it; the rest are ``unchanged`` (a new programme or remark is kept quietly, in the
entry's history, without re-screening). The same file again writes nothing. A file that would remove more
than half of the active entries is refused unless the caller allows the shrink: a truncated download must
not empty a list.
"""

import hashlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from backoffice.services import Actor
from compliance.sanctions import events, hooks
from compliance.sanctions.choices import EntryChangeKind, EntryType, ListFormat
from compliance.sanctions.errors import ListShrink, UnreadableListFile
from compliance.sanctions.formats import ListFileProblem, ParsedEntry, read_ftm, read_ofac, read_un
from compliance.sanctions.models import ListVersion, SanctionsEntry, SanctionsEntryChange, SanctionsList
from compliance.sanctions.models.lists import NAME_MAX, list_code_problem
from compliance.sanctions.search import search_text

# stage, done, total (total 0 while unknown): the admin page's progress row follows these
ProgressFn = Callable[[str, int, int], None]
BATCH = 1000
# an upload's cap: the largest FtM export we take (OpenSanctions' EU list is tens of MB)
MAX_FILE_BYTES = 256 * 1024 * 1024
# what screening reads: a difference here is a change that re-screens customers
CONTENT_FIELDS = ("entry_type", "name", "aliases", "dates_of_birth", "nationalities")
OTHER_FIELDS = ("reference", "programs", "listed_on", "details")


@dataclass(frozen=True)
class SourceFile:
    """One uploaded or named file: its name as given (kept on the version) and its bytes."""

    name: str
    data: bytes


@dataclass
class ImportResult:
    """What an import did (or, for a dry run, would do), in the counts the command and the API print."""

    list_code: str
    entries: int
    added: int = 0
    removed: int = 0
    changed: int = 0
    unchanged: int = 0
    version: ListVersion | None = None
    dry_run: bool = False
    screening: dict[str, int] = field(default_factory=lambda: dict.fromkeys(hooks.SCREENING_COUNTS, 0))


def list_format(code: str) -> str:
    """The file format a list code is imported from (contract: UN's XML, OFAC's CSV, FtM for any other)."""
    return {"UN": ListFormat.UN_XML, "OFAC": ListFormat.OFAC_CSV}.get(code, ListFormat.FTM_JSON)


def _digest(files: list[SourceFile]) -> str:
    """SHA-256 of the one file, or over the files' own hashes in order (OFAC's sdn, alt, add)."""
    if len(files) == 1:
        return hashlib.sha256(files[0].data).hexdigest()
    outer = hashlib.sha256()
    for source in files:
        outer.update(hashlib.sha256(source.data).hexdigest().encode())
    return outer.hexdigest()


def _parse(code: str, file: SourceFile, alt: SourceFile | None, add: SourceFile | None, progress) -> list:
    fmt = list_format(code)
    if fmt != ListFormat.OFAC_CSV and (alt or add):
        which = "alt" if alt else "add"
        raise UnreadableListFile(
            f"Only OFAC's list takes an {which} file", details={which: [f"Only OFAC's list takes an {which} file."]}
        )

    def counted(done: int) -> None:
        if progress:
            progress("reading", done, 0)

    try:
        if fmt == ListFormat.UN_XML:
            return read_un(io.BytesIO(file.data), counted)
        if fmt == ListFormat.OFAC_CSV:
            return read_ofac(
                io.BytesIO(file.data),
                io.BytesIO(alt.data) if alt else None,
                io.BytesIO(add.data) if add else None,
                counted,
            )
        return read_ftm(io.BytesIO(file.data), counted)
    except ListFileProblem as problem:
        raise UnreadableListFile(
            f"The {problem.file} file cannot be imported as {code}: {problem.reason}",
            details={problem.file: [problem.reason]},
        ) from None


def _hash(values: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(values, sort_keys=True, default=str).encode()).hexdigest()


def _record(parsed: ParsedEntry) -> dict[str, Any]:
    """The entry's stored fields, in the form the database keeps them (JSON lists, a date)."""
    record = {
        "entry_type": parsed.entry_type,
        "name": parsed.name[:NAME_MAX],
        "aliases": [alias.as_dict() for alias in parsed.aliases],
        "dates_of_birth": list(parsed.dates_of_birth),
        "nationalities": list(parsed.nationalities),
        "reference": parsed.reference[:200],
        "programs": list(parsed.programs),
        "listed_on": parsed.listed_on,
        "details": parsed.details,
    }
    record["content_hash"] = _hash({f: record[f] for f in CONTENT_FIELDS})
    record["record_hash"] = _hash({f: record[f] for f in (*CONTENT_FIELDS, *OTHER_FIELDS)})
    record["search_text"] = search_text([record["name"], *(a["name"] for a in record["aliases"])])
    return record


def _records(code: str, parsed: list[ParsedEntry]) -> dict[str, dict[str, Any]]:
    records: dict[str, dict[str, Any]] = {}
    for entry in parsed:
        publisher_id = entry.publisher_id[:200]
        if publisher_id in records:
            raise UnreadableListFile(
                f"The file cannot be imported as {code}: the publisher's id {publisher_id} appears twice",
                details={"file": [f"The publisher's id {publisher_id} appears twice."]},
            )
        records[publisher_id] = _record(entry)
    return records


@dataclass
class _Delta:
    added: list[str] = field(default_factory=list)  # publisher ids new to the list
    restored: list[str] = field(default_factory=list)  # back after a removal (counted as added)
    changed: list[str] = field(default_factory=list)
    quiet: list[str] = field(default_factory=list)  # only what screening does not read changed
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0


def _delta(existing: dict[str, tuple], records: dict[str, dict[str, Any]]) -> _Delta:
    """``existing``: publisher id -> (pk, content_hash, record_hash, removed_at)."""
    delta = _Delta()
    for publisher_id, record in records.items():
        known = existing.get(publisher_id)
        if known is None:
            delta.added.append(publisher_id)
        elif known[3] is not None:
            delta.restored.append(publisher_id)
        elif known[1] != record["content_hash"]:
            delta.changed.append(publisher_id)
        else:
            delta.unchanged += 1
            if known[2] != record["record_hash"]:
                delta.quiet.append(publisher_id)
    delta.removed = [pid for pid, known in existing.items() if known[3] is None and pid not in records]
    return delta


def _diff(entry: SanctionsEntry, record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    diff = {}
    for name in (*CONTENT_FIELDS, *OTHER_FIELDS):
        before, after = getattr(entry, name), record[name]
        if before != after:
            diff[name] = {"from": before, "to": after}
    return json.loads(json.dumps(diff, default=str))


def _snapshot(record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps({name: record[name] for name in (*CONTENT_FIELDS, "reference")}, default=str))


def _counts(records: dict[str, dict[str, Any]]) -> tuple[int, int]:
    individuals = sum(1 for r in records.values() if r["entry_type"] == EntryType.INDIVIDUAL)
    entities = sum(1 for r in records.values() if r["entry_type"] == EntryType.ENTITY)
    return individuals, entities


def sanctions_import(
    *,
    list_code: str,
    file: SourceFile,
    alt: SourceFile | None = None,
    add: SourceFile | None = None,
    actor: Actor,
    allow_shrink: bool = False,
    dry_run: bool = False,
    progress: ProgressFn | None = None,
) -> ImportResult:
    """Import ``file`` (OFAC: with ``alt`` and ``add``) as the next version of the list ``list_code``.

    Raises ``UnreadableListFile`` (400) for a file the list's reader refuses and ``ListShrink`` (409) for an
    import that would remove more than half of the active entries; either way nothing is written. A dry run
    reads, compares and counts, and writes nothing. After the commit, ``hooks.entries_changed`` receives the
    ids of the entries added, changed and removed, and what it answers is the result's ``screening``.
    """
    problem = list_code_problem(list_code)
    if problem:
        raise UnreadableListFile(problem, details={"list": [problem]})
    files = [f for f in (file, alt, add) if f is not None]
    sha256 = _digest(files)
    # the same file again (the bytes of the version in force): nothing to read, write or screen
    current = ListVersion.objects.filter(sanctions_list__code=list_code, sanctions_list__current_version=F("pk"))
    same = current.filter(sha256=sha256).first()
    if same is not None:
        return _unchanged(list_code, same, dry_run)
    records = _records(list_code, _parse(list_code, file, alt, add, progress))
    with transaction.atomic():
        sanctions_list = _locked_list(list_code, create=not dry_run)
        current = sanctions_list.current_version if sanctions_list else None
        if current is not None and current.sha256 == sha256:
            return _unchanged(list_code, current, dry_run)  # imported meanwhile by another caller
        existing = _existing(sanctions_list)
        delta = _delta(existing, records)
        active_before = sum(1 for known in existing.values() if known[3] is None)
        if len(delta.removed) * 2 > active_before and not allow_shrink:
            raise ListShrink(
                f"The import would remove {len(delta.removed):,} of the {active_before:,} entries of {list_code}; "
                "allow the shrink to import it",
                details={"allowShrink": ["Required to remove more than half of the list."]},
            )
        result = ImportResult(
            list_code=list_code,
            entries=len(records),
            added=len(delta.added) + len(delta.restored),
            removed=len(delta.removed),
            changed=len(delta.changed),
            unchanged=delta.unchanged,
            dry_run=dry_run,
        )
        if dry_run:
            return result
        version, new_pks = _write(
            sanctions_list, records, existing, delta, sha256=sha256, files=files, actor=actor,
            allow_shrink=allow_shrink, progress=progress,
        )  # fmt: skip
        result.version = version
        touched = {
            "added_ids": [existing[p][0] for p in delta.restored] + new_pks,
            "changed_ids": [existing[p][0] for p in delta.changed],
            "removed_ids": [existing[p][0] for p in delta.removed],
        }
    if any(touched.values()):
        if progress:
            progress("screening", 0, 0)
        result.screening = hooks.entries_changed.counts(list_code=list_code, version=version, **touched)
    return result


def _unchanged(list_code: str, version: ListVersion, dry_run: bool) -> ImportResult:
    return ImportResult(list_code=list_code, entries=version.entries, unchanged=version.entries, dry_run=dry_run)


def _locked_list(code: str, *, create: bool) -> SanctionsList | None:
    """The list's row, locked so that two imports of one list run one after the other; created on first use."""
    locked = SanctionsList.objects.select_for_update(of=("self",)).select_related("current_version")
    found = locked.filter(code=code).first()
    if found is not None or not create:
        return found
    SanctionsList.objects.get_or_create(code=code, defaults={"format": list_format(code), "name": code})
    return locked.get(code=code)


def _existing(sanctions_list: SanctionsList | None) -> dict[str, tuple]:
    if sanctions_list is None:
        return {}
    rows = SanctionsEntry.objects.filter(sanctions_list=sanctions_list).values_list(
        "publisher_id", "pk", "content_hash", "record_hash", "removed_at"
    )
    return {row[0]: row[1:] for row in rows.iterator(chunk_size=5000)}


def _write(
    sanctions_list: SanctionsList,
    records: dict[str, dict[str, Any]],
    existing: dict[str, tuple],
    delta: _Delta,
    *,
    sha256: str,
    files: list[SourceFile],
    actor: Actor,
    allow_shrink: bool,
    progress: ProgressFn | None,
) -> tuple[ListVersion, list]:
    """Write the version, the entries it adds, changes and removes, their history; answer the version and
    the ids of the entries new to the list."""
    now = timezone.now()
    last = sanctions_list.versions.order_by("-number").values_list("number", flat=True).first() or 0
    individuals, entities = _counts(records)
    version = ListVersion.objects.create(
        sanctions_list=sanctions_list,
        number=last + 1,
        sha256=sha256,
        source_files=[f.name for f in files],
        entries=len(records),
        individuals=individuals,
        entities=entities,
        added=len(delta.added) + len(delta.restored),
        removed=len(delta.removed),
        changed=len(delta.changed),
        unchanged=delta.unchanged,
        allowed_shrink=allow_shrink,
        imported_by=actor,
    )
    total = len(delta.added) + len(delta.restored) + len(delta.changed) + len(delta.quiet) + len(delta.removed)
    done = 0

    def step(count: int) -> None:
        nonlocal done
        done += count
        if progress:
            progress("writing", done, total)

    history: list[SanctionsEntryChange] = []
    new_entries = [
        SanctionsEntry(sanctions_list=sanctions_list, publisher_id=pid, version=version, **records[pid])
        for pid in delta.added
    ]
    for start in range(0, len(new_entries), BATCH):
        chunk = new_entries[start : start + BATCH]
        SanctionsEntry.objects.bulk_create(chunk)
        step(len(chunk))
    history += [
        SanctionsEntryChange(
            entry=e, version=version, kind=EntryChangeKind.ADDED, changes=_snapshot(records[e.publisher_id])
        )
        for e in new_entries
    ]
    updated_ids = delta.restored + delta.changed + delta.quiet
    relevant = set(delta.restored) | set(delta.changed)
    for start in range(0, len(updated_ids), BATCH):
        chunk_ids = updated_ids[start : start + BATCH]
        entries = list(SanctionsEntry.objects.filter(pk__in=[existing[p][0] for p in chunk_ids]))
        for entry in entries:
            record = records[entry.publisher_id]
            kind = EntryChangeKind.ADDED if entry.removed_at is not None else EntryChangeKind.CHANGED
            history.append(
                SanctionsEntryChange(
                    entry=entry,
                    version=version,
                    kind=kind,
                    changes=_diff(entry, record),
                    screening_relevant=entry.publisher_id in relevant,
                )
            )
            for name, value in record.items():
                setattr(entry, name, value)
            entry.removed_at = None
            entry.updated_at = now
            if entry.publisher_id in relevant:
                # a quiet change keeps the version that last changed what screening reads
                entry.version = version
        SanctionsEntry.objects.bulk_update(
            entries, [*records[chunk_ids[0]].keys(), "removed_at", "updated_at", "version"], batch_size=BATCH
        )
        step(len(entries))
    removed_pks = [existing[p][0] for p in delta.removed]
    for start in range(0, len(removed_pks), BATCH):
        chunk = removed_pks[start : start + BATCH]
        SanctionsEntry.objects.filter(pk__in=chunk).update(removed_at=now, version=version, updated_at=now)
        history += [SanctionsEntryChange(entry_id=pk, version=version, kind=EntryChangeKind.REMOVED) for pk in chunk]
        step(len(chunk))
    SanctionsEntryChange.objects.bulk_create(history, batch_size=BATCH)
    sanctions_list.current_version = version
    if version.added or version.changed or version.removed:
        sanctions_list.revision += 1
    sanctions_list.save(update_fields=["current_version", "revision"])
    events.list_imported(actor=actor, version=version)
    return version, [e.pk for e in new_entries]
