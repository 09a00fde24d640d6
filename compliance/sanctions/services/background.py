"""An import started from the admin site: its files kept in storage, the import run on a worker (or a thread of
this server without a broker), its progress where the page that polls it can read it.

The progress of the writing stage happens inside the import's transaction, where a row update would stay
invisible until the commit; it goes to the shared cache instead (``import_progress``), and the row records
only the moves a reader must see for good: running, completed with its counts, failed with its reason.
"""

import logging
import uuid

from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from backoffice.errors import DomainError
from backoffice.services import Actor
from backoffice.tasks import dispatch
from compliance.sanctions.choices import ImportStatus
from compliance.sanctions.errors import UnreadableListFile
from compliance.sanctions.models import SanctionsImport
from compliance.sanctions.models.lists import list_code_problem
from compliance.sanctions.services.imports import SourceFile, sanctions_import

logger = logging.getLogger("compliance.sanctions")
ROLES = ("file", "alt", "add")
PROGRESS_SECONDS = 24 * 60 * 60


# the task that runs a queued import (queued by name: compliance/sanctions/tasks.py)
RUN_IMPORT = "compliance.sanctions.run_import"


def _progress_key(import_id) -> str:
    return f"sanctions-import-progress:{import_id}"


def import_progress(sanctions_import_row: SanctionsImport) -> dict:
    """``{stage, done, total}`` of a running import as its worker last said, else as its row says."""
    row = sanctions_import_row
    live = cache.get(_progress_key(row.pk)) if row.status == ImportStatus.RUNNING else None
    return live or {"stage": row.stage, "done": row.done, "total": row.total}


def _path(import_id, role: str) -> str:
    return f"sanctions-imports/{import_id}/{role}"


def sanctions_import_start(
    *, list_code: str, files: dict[str, SourceFile], actor: Actor, allow_shrink: bool = False
) -> SanctionsImport:
    """Keep the files and start their import in the background; the answer's row follows it."""
    problem = list_code_problem(list_code)
    if problem:
        raise UnreadableListFile(problem, details={"list": [problem]})
    if "file" not in files:
        raise UnreadableListFile("A file is required", details={"file": ["A file is required."]})
    import_id = uuid.uuid4()
    # storage may store a file under another name than asked (an existing one kept): the row keeps the one given
    stored = {
        role: default_storage.save(_path(import_id, role), ContentFile(source.data)) for role, source in files.items()
    }
    row = SanctionsImport.objects.create(
        id=import_id,
        list_code=list_code,
        source_files=[{"role": role, "name": source.name, "path": stored[role]} for role, source in files.items()],
        allow_shrink=allow_shrink,
        created_by=actor,
        stage="queued",
    )
    transaction.on_commit(lambda: dispatch(RUN_IMPORT, args=(str(import_id),), background=True))
    return row


def sanctions_import_run(*, import_id) -> SanctionsImport | None:
    """Run a queued import once (a second delivery finds it taken and does nothing); its files go afterwards."""
    claimed = SanctionsImport.objects.filter(pk=import_id, status=ImportStatus.QUEUED).update(
        status=ImportStatus.RUNNING, stage="reading"
    )
    if not claimed:
        return None
    row = SanctionsImport.objects.select_related("created_by").get(pk=import_id)
    key = _progress_key(row.pk)

    def progress(stage: str, done: int, total: int) -> None:
        cache.set(key, {"stage": stage, "done": done, "total": total}, PROGRESS_SECONDS)

    stored = {item["role"]: item for item in row.source_files}
    try:
        files = {}
        for role in ROLES:
            if role in stored:
                with default_storage.open(stored[role]["path"]) as handle:
                    files[role] = SourceFile(name=stored[role]["name"], data=handle.read())
        result = sanctions_import(
            list_code=row.list_code,
            file=files["file"],
            alt=files.get("alt"),
            add=files.get("add"),
            actor=row.created_by,
            allow_shrink=row.allow_shrink,
            progress=progress,
        )
    except DomainError as exc:
        _finish(row, status=ImportStatus.FAILED, error=exc.message, result={"code": exc.code, "details": exc.details})
        return row
    except Exception as exc:
        logger.exception("sanctions import %s failed", row.pk)
        _finish(row, status=ImportStatus.FAILED, error=f"The import failed: {exc.__class__.__name__}", result={})
        raise
    finally:
        for item in stored.values():
            default_storage.delete(item["path"])
        cache.delete(key)
    _finish(
        row,
        status=ImportStatus.COMPLETED,
        error="",
        result={
            "entries": result.entries,
            "added": result.added,
            "removed": result.removed,
            "changed": result.changed,
            "unchanged": result.unchanged,
            "screening": result.screening,
        },
        version=result.version,
        done=result.entries,
    )
    return row


def _finish(row: SanctionsImport, *, status: str, error: str, result: dict, version=None, done: int = 0) -> None:
    row.status = status
    row.stage = "done" if status == ImportStatus.COMPLETED else "failed"
    row.error = error
    row.result = result
    row.version = version
    row.done = row.total = done
    row.finished_at = timezone.now()
    row.save(update_fields=["status", "stage", "error", "result", "version", "done", "total", "finished_at"])
