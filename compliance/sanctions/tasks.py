"""Sanctions work in the background: imports started from the admin site, and re-screening customers against an
import's delta, a chunk per task.

An import runs on a worker (or a thread of the server without a broker). A re-screening task screens
``SANCTIONS_SCREENING_CHUNK`` customers (in id order, after ``after``) against the entries added or changed, in one
transaction, then sends the next chunk. Recording a match is idempotent (one row and one alert per pair), so a
chunk delivered twice repeats nothing.
"""

from celery import shared_task
from django.conf import settings

from backoffice.tasks import VikelaTask, dispatch
from compliance.sanctions.services.background import sanctions_import_run
from compliance.sanctions.services.screening import screen_users_chunk


@shared_task(base=VikelaTask, name="compliance.sanctions.run_import")
def run_import(import_id: str) -> str:
    row = sanctions_import_run(import_id=import_id)
    return "SKIPPED" if row is None else row.status


@shared_task(bind=True, base=VikelaTask, name="compliance.sanctions.screen_users")
def screen_users(self, entry_ids: list, after=None) -> str:
    while True:
        _, last = screen_users_chunk(entry_ids=entry_ids, after=after, size=settings.SANCTIONS_SCREENING_CHUNK)
        if last is None:
            return "COMPLETED"
        after = str(last)
        if not self.request.is_eager:
            dispatch(screen_users, args=(entry_ids, after))
            return "CONTINUED"
