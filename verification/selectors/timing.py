"""How long a job's stages take: measured durations (nominal until measured) and the time a job has left."""

import datetime as dt
import statistics

from django.core.cache import cache
from django.utils import timezone

from verification.choices import WORK_STAGES, JobStatus, Stage, StageStatus
from verification.models import VerificationJob

# Until a stage has been measured on this installation, the interface's nominal durations stand in for it
# (ocr_processing about 3 minutes, face_verification about 2, final_review about 1). The first finished job
# replaces them with what this machine actually takes.
NOMINAL_SECONDS = {Stage.OCR_PROCESSING: 180.0, Stage.FACE_VERIFICATION: 120.0, Stage.FINAL_REVIEW: 60.0}
DURATION_SAMPLE = 200
DURATION_CACHE_KEY = "verification:stage-durations"
DURATION_CACHE_SECONDS = 60


def stage_durations(*, fresh: bool = False) -> dict[str, float]:
    """The median seconds of each stage over the last finished jobs (cached for a minute)."""
    if not fresh:
        cached = cache.get(DURATION_CACHE_KEY)
        if cached is not None:
            return cached
    samples: dict[str, list[float]] = {stage: [] for stage in NOMINAL_SECONDS}
    recent = (
        VerificationJob.objects.filter(status__in=[JobStatus.COMPLETED, JobStatus.REJECTED])
        .exclude(timings={})
        .order_by("-completed_at")
        .values_list("timings", flat=True)[:DURATION_SAMPLE]
    )
    for timings in recent:
        for stage, seconds in (timings or {}).items():
            if stage in samples and isinstance(seconds, int | float):
                samples[stage].append(float(seconds))
    durations = {
        stage: round(statistics.median(values), 3) if values else NOMINAL_SECONDS[stage]
        for stage, values in samples.items()
    }
    cache.set(DURATION_CACHE_KEY, durations, DURATION_CACHE_SECONDS)
    return durations


def estimated_time_remaining(job: VerificationJob, *, now: dt.datetime | None = None) -> float:
    """Seconds until the automated run is done: what is left of the running stage plus the stages after it."""
    if job.is_finished or job.status == JobStatus.FAILED:
        return 0.0
    now = now or timezone.now()
    durations = stage_durations()
    left = 0.0
    for stage in WORK_STAGES:
        if stage == Stage.SUBMITTED:
            continue
        entry = (job.stage_progress or {}).get(stage, {})
        status = entry.get("status")
        if status == StageStatus.DONE:
            continue
        expected = durations[stage]
        if status == StageStatus.RUNNING and entry.get("started_at"):
            elapsed = (now - dt.datetime.fromisoformat(entry["started_at"])).total_seconds()
            left += max(expected - elapsed, 0.0)
        else:
            left += expected
    return round(left, 1)
