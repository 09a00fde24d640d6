"""Periodic work: what apps ask Celery beat to send, and which period a run belongs to.

An app registers its periodic tasks from ``AppConfig.ready()``::

    from backoffice.ops import periodic
    periodic.register("aml-scan", task="compliance.aml_scan", crontab={"minute": "0", "hour": "2"})
    periodic.register("stale-jobs", task="verification.requeue_stale_jobs", every=60)

Beat (``backoffice.ops.beat.LockedScheduler``) sends each once per *period*: the interval it falls in
(``every`` seconds, counted from the Unix epoch, so every beat on every machine agrees on the boundaries) or
the minute a crontab fires. The period's key goes with the task in its headers (``PERIOD_HEADER``), so a
task whose work must happen once per period can use it as its idempotency key.
"""

import datetime as dt
from dataclasses import dataclass, field

from celery.schedules import crontab as celery_crontab
from celery.schedules import schedule as celery_schedule

PERIOD_HEADER = "vikela_period"


@dataclass(frozen=True)
class Periodic:
    name: str
    task: str
    every: int | None = None
    crontab: dict | None = None
    kwargs: dict = field(default_factory=dict)

    def schedule(self):
        if self.every is not None:
            return celery_schedule(dt.timedelta(seconds=self.every))
        return celery_crontab(**self.crontab)


_entries: dict[str, Periodic] = {}


def register(name: str, *, task: str, every: int | None = None, crontab: dict | None = None, kwargs=None) -> None:
    """Send ``task`` every ``every`` seconds or on a ``crontab`` (celery.schedules.crontab's arguments, UTC)."""
    if (every is None) == (crontab is None):
        raise ValueError(f"periodic {name!r}: give exactly one of every= and crontab=")
    if every is not None and every < 1:
        raise ValueError(f"periodic {name!r}: every must be at least 1 second")
    _entries[name] = Periodic(
        name=name, task=task, every=every, crontab=dict(crontab or {}) or None, kwargs=kwargs or {}
    )


def entries() -> dict[str, Periodic]:
    return dict(_entries)


def beat_schedule() -> dict:
    """The registered entries in Celery's ``beat_schedule`` form."""
    return {
        entry.name: {"task": entry.task, "schedule": entry.schedule(), "kwargs": dict(entry.kwargs)}
        for entry in _entries.values()
    }


def period_of(name: str, schedule, now: dt.datetime) -> tuple[str, int]:
    """(key, seconds to keep it) of the period ``now`` falls in for an entry with this schedule."""
    stamp = now.timestamp()
    if isinstance(schedule, celery_schedule) and not isinstance(schedule, celery_crontab):
        seconds = max(1, int(schedule.run_every.total_seconds()))
        start = int(stamp // seconds) * seconds
        return f"{name}:{start}", max(seconds * 2, 60)
    # a crontab fires at most once a minute: the minute is its period
    start = int(stamp // 60) * 60
    return f"{name}:{start}", 2 * 24 * 3600
