"""A job's stage progress (the contract's ``stageProgress``) and its percentage, as plain functions on the dict.

``{stage: {"status": pending|running|done|failed, "started_at": iso|None, "completed_at": iso|None}}`` for
each of ``WORK_STAGES``. Stored on the job as it is (JSON), renamed to camelCase by the serializer.
"""

import datetime as dt

from verification.choices import WORK_STAGES, Stage, StageStatus

# How far along a job is when a stage starts and when it is done: the share of the work behind it.
_SPAN = {
    Stage.SUBMITTED: (0, 0),
    Stage.OCR_PROCESSING: (5, 45),
    Stage.FACE_VERIFICATION: (45, 80),
    Stage.FINAL_REVIEW: (80, 90),
}


def initial_progress(*, submitted_at: dt.datetime | None = None) -> dict:
    stamp = submitted_at.isoformat() if submitted_at else None
    progress = {
        stage.value: {"status": StageStatus.PENDING.value, "started_at": None, "completed_at": None}
        for stage in WORK_STAGES
    }
    progress[Stage.SUBMITTED] = {"status": StageStatus.DONE.value, "started_at": stamp, "completed_at": stamp}
    return progress


def mark(progress: dict, stage: str, status: StageStatus, at: dt.datetime) -> dict:
    """A copy of ``progress`` with ``stage`` moved to ``status`` at ``at`` (running stamps the start)."""
    progress = {key: dict(value) for key, value in progress.items()}
    entry = progress.setdefault(stage, {"status": StageStatus.PENDING.value, "started_at": None, "completed_at": None})
    entry["status"] = status.value
    if status is StageStatus.RUNNING:
        entry["started_at"], entry["completed_at"] = at.isoformat(), None
    elif status in (StageStatus.DONE, StageStatus.FAILED):
        entry["started_at"] = entry["started_at"] or at.isoformat()
        entry["completed_at"] = at.isoformat()
    return progress


def percent(stage: str, status: StageStatus) -> int:
    """The job's progress when ``stage`` is at ``status``; a finished job is at 100."""
    if stage in (Stage.COMPLETED, Stage.REJECTED):
        return 100
    start, end = _SPAN.get(stage, (0, 0))
    return end if status is StageStatus.DONE else start
