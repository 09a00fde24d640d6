"""PEP screening in the background: a run's chunks (``screen_chunk``) and beat's re-screening (``rescreen``).

A run is a list of PEP ids cut in chunks (``compliance.peps.services.screening``); each chunk's matches and
its progress commit together, so a chunk delivered twice (Redis redelivers a task whose worker died) finds
itself done and does nothing. On a worker each task does one chunk and sends the next, keeping tasks short;
in-process (no broker) the same task does them all in turn.
"""

import logging

from celery import shared_task
from django.conf import settings

from backoffice.tasks import TRANSIENT, VikelaTask, dispatch
from compliance.peps.models.pep import ScreeningRun
from compliance.peps.services.screening import (
    SCREEN_CHUNK,
    rescreen_periodically,
    screening_chunk,
    screening_fail,
    screening_resume_stale,
)

logger = logging.getLogger("compliance.screening")


@shared_task(bind=True, base=VikelaTask, name=SCREEN_CHUNK)
def screen_chunk(self, run_id: int, index: int) -> str:
    while True:
        try:
            done = screening_chunk(run_id=run_id, index=index)
        except TRANSIENT:
            raise  # retried with back-off (VikelaTask); the chunk's transaction rolled back
        except Exception as error:
            screening_fail(run_id=run_id, error=error)
            raise
        if done is None:
            return "SKIPPED"  # done already (a second delivery) or the run is over
        run = ScreeningRun.objects.only("chunks_done", "chunks_total").get(pk=run_id)
        if run.chunks_done >= run.chunks_total:
            return "COMPLETED"
        index = run.chunks_done
        if not self.request.is_eager:
            dispatch(screen_chunk, args=(run_id, index))
            return "CONTINUED"


@shared_task(base=VikelaTask, name="compliance.peps.rescreen")
def rescreen() -> int | None:
    """Periodic: resume stalled runs, then screen the PEPs whose current content was never screened."""
    return rescreen_periodically(stale_seconds=settings.PEP_SCREENING_STALE_SECONDS)


@shared_task(base=VikelaTask, name="compliance.peps.resume_stale")
def resume_stale() -> list[int]:
    """Periodic, every PEP_SCREENING_SWEEP_SECONDS: send again the next chunk of each run stalled for
    PEP_SCREENING_STALE_SECONDS (its worker died holding it; Redis would hand the chunk back only after its
    visibility timeout, 30 minutes, and the hourly re-screen is later still)."""
    return screening_resume_stale(older_than_seconds=settings.PEP_SCREENING_STALE_SECONDS)
