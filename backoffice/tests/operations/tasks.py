"""Celery tasks the operations tests start: one remembers the context it ran with, one fails a set number of
times (a lost database connection) before it succeeds."""

from celery import shared_task
from django.db import OperationalError

from backoffice.ops import context
from backoffice.tasks import VikelaTask

seen: list[dict] = []
attempts: dict[str, int] = {}


@shared_task(base=VikelaTask, name="tests.remember_context")
def remember_context(label: str) -> str:
    seen.append({"label": label, **context.snapshot()})
    return label


@shared_task(base=VikelaTask, name="tests.flaky")
def flaky(key: str, failures: int) -> int:
    attempts[key] = attempts.get(key, 0) + 1
    if attempts[key] <= failures:
        raise OperationalError("server closed the connection unexpectedly")
    return attempts[key]
