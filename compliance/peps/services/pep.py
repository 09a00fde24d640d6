"""Writes on the PEP list: create, update, delete, bulk upload and file import. Every write is audited.

After each write, the PEPs whose matching content is new or changed are screened against the users
(``compliance.peps.services.screening.screen_peps``) and the result is returned as the matching summary; a
change that matching does not read (a position, the source) screens nothing.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from backoffice.errors import Conflict, DomainError, ValidationFailed
from backoffice.services import Actor, audit_batch, lock_row, model_clean, versioned_update
from compliance.peps import events
from compliance.peps.choices import PEPCategory, ScreeningTrigger
from compliance.peps.models.pep import PEP, PEPMatch, PEPNameKey, canonical_category, normalise_name
from compliance.peps.selectors.pep import pep_person
from compliance.peps.selectors.pep_index import pep_index_changed
from compliance.peps.services.screening import MatchingSummary, screen_peps
from kyc.name_index import stored
from names import blocking_keys

NAME_REQUIRED = "Name is required"
NAME_TAKEN = "PEP with this name already exists"
BULK_MAX = 10_000
CHUNK = 1000
PREVIEW_ROWS = 500


@dataclass(frozen=True)
class PEPResult:
    pep: PEP
    matching: MatchingSummary


@dataclass(frozen=True)
class ItemError:
    """A bulk item or file row that was refused: where it was, the name it had, and why."""

    index: int
    name: str
    message: str
    details: dict | None = None


@dataclass
class BulkResult:
    created: list[PEP]
    errors: list[ItemError]
    matching: MatchingSummary


@dataclass(frozen=True)
class RowOutcome:
    line: int
    name: str
    action: str  # create, update, unchanged, error
    message: str = ""


@dataclass
class ImportResult:
    """What an import did (or, for a dry run, would do), row by row for the first ``PREVIEW_ROWS``."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0
    errors: list[ItemError] = field(default_factory=list)
    rows: list[RowOutcome] = field(default_factory=list)
    matching: MatchingSummary = field(default_factory=MatchingSummary)
    dry_run: bool = False

    def note(self, outcome: RowOutcome) -> None:
        if len(self.rows) < PREVIEW_ROWS:
            self.rows.append(outcome)


# ---------------------------------------------------------------- validation


def _clean(pep: PEP) -> PEP:
    """Model validation as domain errors: a blank name is "Name is required", anything else a 400 with details."""
    pep.name = " ".join((pep.name or "").split()) if isinstance(pep.name, str) else pep.name
    if not isinstance(pep.name, str) or not pep.name:
        raise ValidationFailed(NAME_REQUIRED, details={"name": ["This field is required."]})
    pep.category = canonical_category(pep.category or PEPCategory.UNKNOWN) or pep.category
    model_clean(pep, exclude=["name_key", "content_hash"], validate_unique=False, headlines={"name": NAME_REQUIRED})
    return pep


def _new(fields: dict[str, Any]) -> PEP:
    values = {
        "category": PEPCategory.UNKNOWN,
        "position": "",
        "country": "",
        "source": "",
        "is_active": True,
        "additional_info": {},
        "aliases": [],
        "date_of_birth": "",
    }
    values.update({name: value for name, value in fields.items() if value is not None})
    unknown = sorted(set(values) - {*PEP.UPDATABLE, "source"})
    if unknown:
        raise ValidationFailed("Validation error", details={name: ["Unknown field."] for name in unknown})
    return _clean(PEP(**values))


def _taken(name_key: str, *, other_than=None) -> bool:
    qs = PEP.objects.filter(name_key=name_key)
    if other_than is not None:
        qs = qs.exclude(pk=other_than.pk)
    return qs.exists()


def _index(peps: list[PEP], *, replace: bool = False) -> None:
    """Write the PEPs' name keys (``names.blocking_keys`` of the name and aliases)."""
    if replace:
        PEPNameKey.objects.filter(pep__in=[pep.pk for pep in peps]).delete()
    rows = [
        PEPNameKey(pep_id=pep.pk, key=key) for pep in peps for key in sorted(stored(blocking_keys(pep_person(pep))))
    ]
    PEPNameKey.objects.bulk_create(rows, batch_size=2000)
    pep_index_changed()


def _reset_if_reactivated(pep: PEP, *, was_active: bool) -> None:
    """An inactive PEP made active again is screened anew: users who registered meanwhile were not compared."""
    if pep.is_active and not was_active:
        pep.screened_hash = ""


def _snapshot(pep: PEP) -> dict:
    return {
        "name": pep.name,
        "category": pep.category,
        "position": pep.position,
        "country": pep.country,
        "source": pep.source,
        "is_active": pep.is_active,
        "additional_info": pep.additional_info,
        "aliases": pep.aliases,
        "date_of_birth": pep.date_of_birth,
        "version": pep.version,
    }


def _screen(peps: list[PEP], trigger: str, actor: Actor, subject: str = "") -> MatchingSummary:
    """Screen the written PEPs: here, so the answer carries the matches, unless a broker is configured and they
    are more than ``PEP_SCREEN_INLINE_MAX``: then on workers, chunk by chunk, and the answer names the run."""
    ids = [pep.pk for pep in peps if pep.is_active]
    if not ids:
        return MatchingSummary()
    background = settings.TASKS_ASYNC and len(ids) > settings.PEP_SCREEN_INLINE_MAX
    return screen_peps(pep_ids=ids, trigger=trigger, actor=actor, subject=subject, background=background)


# ---------------------------------------------------------------- one PEP


def pep_create(
    *,
    actor: Actor,
    name: str,
    category: str = PEPCategory.UNKNOWN,
    position: str = "",
    country: str = "",
    source: str = "",
    is_active: bool = True,
    additional_info: dict | None = None,
    aliases: list[str] | None = None,
    date_of_birth: str | None = "",
) -> PEPResult:
    """Add a PEP (409 when its normalised name is taken), then screen it against every user."""
    with transaction.atomic():
        pep = _new(
            {
                "name": name,
                "category": category,
                "position": position,
                "country": country,
                "source": source,
                "is_active": is_active,
                "additional_info": additional_info,
                "aliases": aliases,
                "date_of_birth": date_of_birth,
            }
        )
        if _taken(pep.name_key):
            raise Conflict(NAME_TAKEN, details={"name": ["Already on the list."]})
        try:
            with transaction.atomic():
                pep.save(force_insert=True)
        except IntegrityError:  # a concurrent create of the same name won the unique index
            raise Conflict(NAME_TAKEN, details={"name": ["Already on the list."]}) from None
        _index([pep])
        events.pep_created(actor=actor, pep=pep, snapshot=_snapshot(pep))
    return PEPResult(pep, _screen([pep], ScreeningTrigger.PEP_CREATED, actor, pep.name))


def pep_update(*, pep: PEP, actor: Actor, changes: dict[str, Any], source: str | None = None) -> PEPResult:
    """Change the updatable fields (``PEP.UPDATABLE``) as one new version; screen again if matching changed.

    ``source`` (where the record comes from) is not one of the interface's updatable fields, so the API never
    passes it; the admin's edit form does (None: left as it is), in the same version as the rest.

    Matching changed when the name, aliases, date of birth or country did, or when an inactive PEP becomes
    active again (users who registered meanwhile were not compared with it). Nothing is written, and no
    version spent, when every value is already the current one.
    """
    unknown = sorted(set(changes) - set(PEP.UPDATABLE))
    if unknown:
        raise ValidationFailed(
            "Validation error", details={name: ["This field cannot be updated."] for name in unknown}
        )
    with transaction.atomic():
        locked = lock_row(pep)
        was_active, old_hash, old_key = locked.is_active, locked.content_hash, locked.name_key
        values = {
            name: {"additional_info": {}, "aliases": []}.get(name, "")
            if value is None and name in ("additional_info", "aliases", "date_of_birth", "position", "country")
            else value
            for name, value in changes.items()
        }
        if source is not None:
            values["source"] = source.strip()

        def before_save(changed: PEP, _diff) -> None:
            if changed.name_key != old_key and _taken(changed.name_key, other_than=changed):
                raise Conflict(NAME_TAKEN, details={"name": ["Already on the list."]})
            _reset_if_reactivated(changed, was_active=was_active)

        try:
            with transaction.atomic():
                diff = versioned_update(
                    locked, changes=values, clean=_clean, snapshot=_snapshot, before_save=before_save
                )
        except IntegrityError:
            raise Conflict(NAME_TAKEN, details={"name": ["Already on the list."]}) from None
        if not diff:
            return PEPResult(locked, MatchingSummary())
        reactivated = locked.is_active and not was_active
        content_changed = locked.content_hash != old_hash
        if content_changed:
            _index([locked], replace=True)
        pep_index_changed()  # an activation or deactivation too
        if locked.name_key != old_key:
            _follow_rename(locked, old_key)
        events.pep_updated(actor=actor, pep=locked, fields=diff)
    screen = content_changed or reactivated
    matching = _screen([locked], ScreeningTrigger.PEP_UPDATED, actor, locked.name) if screen else MatchingSummary()
    return PEPResult(locked, matching)


def _follow_rename(pep: PEP, old_key: str) -> None:
    """The pairs of a renamed PEP keep their rows (and decisions) under the new name, unless a row of the new
    name already exists for that user (left from a deleted PEP of that name): then that one stands."""
    taken = PEPMatch.objects.filter(pep_name_key=pep.name_key).values("user_id")
    PEPMatch.objects.filter(pep=pep, pep_name_key=old_key).exclude(user_id__in=taken).update(
        pep_name_key=pep.name_key, pep_name=pep.name
    )


@transaction.atomic
def pep_delete(*, pep: PEP, actor: Actor) -> None:
    """Delete a PEP for good. Its matches stay (detached), so re-adding the name neither alerts twice nor
    forgets a dismissal."""
    snapshot = _snapshot(pep)
    pep_id = pep.pk
    PEP.objects.filter(pk=pep_id).delete()
    pep_index_changed()
    events.pep_deleted(actor=actor, pep_id=pep_id, snapshot=snapshot)


# ---------------------------------------------------------------- many PEPs


def _error(index: int, fields: dict, exc: DomainError, *, spelled_out: bool = False) -> ItemError:
    """The item's error; ``spelled_out`` puts the field reasons in the message (a file row has no envelope)."""
    name = fields.get("name") if isinstance(fields.get("name"), str) else ""
    message = exc.message
    if spelled_out and exc.details and message == "Validation error":
        message = "; ".join(f"{field}: {' '.join(reasons)}" for field, reasons in exc.details.items())
    return ItemError(index=index, name=name or "", message=message, details=exc.details)


def _insert_many(peps: list[PEP]) -> list[PEP]:
    """Insert, chunk by chunk; a chunk hit by a concurrent insert of one of its names goes row by row."""
    inserted = []
    for start in range(0, len(peps), CHUNK):
        chunk = peps[start : start + CHUNK]
        try:
            with transaction.atomic():
                PEP.objects.bulk_create(chunk)
            inserted.extend(chunk)
        except IntegrityError:
            for pep in chunk:
                try:
                    with transaction.atomic():
                        pep.save(force_insert=True)
                    inserted.append(pep)
                except IntegrityError:
                    pass
    return inserted


def pep_bulk_create(*, actor: Actor, items: list[tuple[int, dict]]) -> BulkResult:
    """Create many PEPs, each validated alone: a bad or duplicate item fails alone (with its index).

    ``items`` are (index in the request, domain fields) of the items that passed the API's own checks.
    Then the created PEPs are screened against the users in batches.
    """
    errors: list[ItemError] = []
    wanted: dict[str, tuple[int, PEP]] = {}
    for index, fields in items:
        try:
            pep = _new(fields)
        except DomainError as exc:
            errors.append(_error(index, fields, exc))
            continue
        if pep.name_key in wanted:
            errors.append(
                ItemError(index, pep.name, NAME_TAKEN, {"name": [f"Same name as item {wanted[pep.name_key][0]}."]})
            )
            continue
        wanted[pep.name_key] = (index, pep)
    keys = list(wanted)
    existing: set[str] = set()
    for start in range(0, len(keys), CHUNK):
        existing.update(PEP.objects.filter(name_key__in=keys[start : start + CHUNK]).values_list("name_key", flat=True))
    fresh = []
    for key, (index, pep) in wanted.items():
        if key in existing:
            errors.append(ItemError(index, pep.name, NAME_TAKEN, {"name": ["Already on the list."]}))
        else:
            fresh.append((index, pep))
    with transaction.atomic():
        inserted = _insert_many([pep for _, pep in fresh])
        done = {pep.pk for pep in inserted}
        errors.extend(
            ItemError(index, pep.name, NAME_TAKEN, {"name": ["Already on the list."]})
            for index, pep in fresh
            if pep.pk not in done
        )
        _index(inserted)
        with audit_batch():
            for pep in inserted:
                events.pep_created(actor=actor, pep=pep, snapshot=_snapshot(pep))
    matching = _screen(inserted, ScreeningTrigger.PEP_BULK, actor, f"bulk upload of {len(inserted)} PEP(s)")
    return BulkResult(created=inserted, errors=sorted(errors, key=lambda e: e.index), matching=matching)


IMPORTED_FIELDS = (
    "category",
    "position",
    "country",
    "source",
    "is_active",
    "additional_info",
    "aliases",
    "date_of_birth",
)


def pep_import(
    *, rows: Iterable[tuple[int, dict | None, str]], actor: Actor, dry_run: bool = False, progress=None
) -> ImportResult:
    """Add or update PEPs from a list file, idempotently: one row per name, matched on the normalised name.

    ``rows`` are (line, fields, problem): a row the file reader could not read carries its problem instead
    of fields. A new name is created; a known one is updated with the fields the row carries (a field the
    file does not have keeps its value); an identical one is left alone and not screened again. A name seen
    again further down the file is an error on that line. With ``dry_run`` everything is checked and counted
    exactly as a real run would, then rolled back, and nothing is screened.
    """
    result = ImportResult(dry_run=dry_run)
    seen: dict[str, int] = {}
    to_screen: list[PEP] = []
    with transaction.atomic():
        batch: list[tuple[int, dict]] = []
        for line, fields, problem in rows:
            if problem:
                result.errors.append(ItemError(line, (fields or {}).get("name") or "", problem))
                result.note(RowOutcome(line, (fields or {}).get("name") or "", "error", problem))
                continue
            batch.append((line, fields))
            if len(batch) >= CHUNK:
                to_screen.extend(_import_batch(batch, result, seen, actor))
                batch = []
                if progress:
                    progress(line)
        to_screen.extend(_import_batch(batch, result, seen, actor))
        result.errors.sort(key=lambda e: e.index)
        result.rows.sort(key=lambda row: row.line)
        if dry_run:
            transaction.set_rollback(True)
    if not dry_run:
        result.matching = _screen(to_screen, ScreeningTrigger.PEP_IMPORT, actor, f"import of {len(to_screen)} PEP(s)")
    return result


def _import_batch(batch: list[tuple[int, dict]], result: ImportResult, seen: dict[str, int], actor: Actor) -> list[PEP]:
    """One batch of an import; returns the PEPs whose matching content is new or changed."""
    valid: list[tuple[int, dict, str]] = []
    for line, fields in batch:
        name = " ".join(str(fields.get("name") or "").split())
        key = normalise_name(name)
        if not key:
            result.errors.append(ItemError(line, "", NAME_REQUIRED))
            result.note(RowOutcome(line, "", "error", NAME_REQUIRED))
            continue
        if key in seen:
            message = f"Same name as line {seen[key]}"
            result.errors.append(ItemError(line, name, message))
            result.note(RowOutcome(line, name, "error", message))
            continue
        seen[key] = line
        valid.append((line, {**fields, "name": name}, key))
    existing = {pep.name_key: pep for pep in PEP.objects.filter(name_key__in=[key for _, _, key in valid])}
    created, changed_content = [], []
    updates: list[tuple[PEP, dict]] = []
    for line, fields, key in valid:
        pep = existing.get(key)
        try:
            if pep is None:
                new = _new(fields)
                created.append(new)
                result.created += 1
                result.note(RowOutcome(line, new.name, "create"))
                continue
            was_active, old_hash = pep.is_active, pep.content_hash
            values = {name: fields[name] for name in ("name", *IMPORTED_FIELDS) if fields.get(name) is not None}
            diff = versioned_update(
                pep,
                changes=values,
                clean=_clean,
                snapshot=_snapshot,
                before_save=lambda changed, _diff, was_active=was_active: _reset_if_reactivated(
                    changed, was_active=was_active
                ),
            )
        except DomainError as exc:
            error = _error(line, fields, exc, spelled_out=True)
            result.errors.append(error)
            result.note(RowOutcome(line, error.name, "error", error.message))
            if pep is not None:
                pep.refresh_from_db()
            continue
        if not diff:
            result.unchanged += 1
            result.note(RowOutcome(line, pep.name, "unchanged"))
            continue
        if pep.content_hash != old_hash:
            _index([pep], replace=True)
        if pep.content_hash != old_hash or (pep.is_active and not was_active):
            changed_content.append(pep)
        result.updated += 1
        result.note(RowOutcome(line, pep.name, "update", ", ".join(sorted(diff))))
        updates.append((pep, diff))
    inserted = _insert_many(created)
    _index(inserted)
    with audit_batch():
        for pep, diff in updates:
            events.pep_updated(actor=actor, pep=pep, fields=diff, imported=True)
        for pep in inserted:
            events.pep_created(actor=actor, pep=pep, snapshot=_snapshot(pep), imported=True)
    return [*inserted, *changed_content]
