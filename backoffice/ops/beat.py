"""Celery beat that never sends one period of a periodic task twice (``CELERY_BEAT_SCHEDULER``).

Two guards, both in the broker's Redis (every beat of the deployment uses the same one):

* **One leader.** Only the beat holding the lock ``vikela:beat:leader`` sends anything; it renews the lock
  on every tick (every ``CELERY_BEAT_MAX_LOOP_INTERVAL`` seconds at most). A second beat, started by mistake
  or as a standby on another machine, waits and takes over within ``BEAT_LOCK_SECONDS`` of the leader's
  death.
* **One send per period.** Before sending, the leader claims the entry's period key
  (``backoffice.ops.periodic.period_of``) with SET NX. A beat restarted within a period (its schedule file lost,
  an interval entry due at once), or an old leader that was frozen past its lease and wakes up, finds the
  key taken and skips the run.
"""

import logging
import os
import socket
import uuid

import redis
from celery.beat import PersistentScheduler
from django.conf import settings
from django.utils import timezone

from backoffice.ops import metrics, periodic

logger = logging.getLogger("backoffice.beat")

LEADER_KEY = "vikela:beat:leader"
PERIOD_PREFIX = "vikela:beat:period:"


class LockedScheduler(PersistentScheduler):
    def __init__(self, *args, **kwargs):
        self.identity = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.redis = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=5, socket_connect_timeout=5)
        self.leading: bool | None = None  # unknown until the first tick, which logs what it is
        super().__init__(*args, **kwargs)

    def setup_schedule(self):
        super().setup_schedule()
        # the apps' registrations (made in ready(), so after Django set up) join beat_schedule's entries
        self.merge_inplace(periodic.beat_schedule())

    def lead(self) -> bool:
        """Take or renew the leadership lock; True while this beat holds it."""
        ttl = settings.BEAT_LOCK_SECONDS
        try:
            if self.redis.set(LEADER_KEY, self.identity, nx=True, ex=ttl):
                leading = True
            else:
                # renew only our own lock: compare and extend in one step
                leading = bool(self.redis.eval(_RENEW, 1, LEADER_KEY, self.identity, ttl))
        except redis.RedisError as error:
            logger.warning("beat cannot reach Redis for its lock: %s", error)
            leading = False
        if leading != self.leading:
            logger.info("beat %s %s", self.identity, "leads" if leading else "stands by")
            self.leading = leading
        return leading

    def tick(self, *args, **kwargs):
        if not self.lead():
            return min(self.max_interval, settings.BEAT_LOCK_SECONDS / 3)
        return super().tick(*args, **kwargs)

    def claim_period(self, entry) -> tuple[bool, str]:
        key, ttl = periodic.period_of(entry.name, entry.schedule, timezone.now())
        return bool(self.redis.set(PERIOD_PREFIX + key, self.identity, nx=True, ex=ttl)), key

    def apply_entry(self, entry, producer=None):
        try:
            claimed, key = self.claim_period(entry)
        except redis.RedisError as error:
            logger.warning("beat could not claim the period of %s: %s; not sent", entry.name, error)
            return
        if not claimed:
            metrics.PERIODIC_SKIPPED.labels(entry.name).inc()
            logger.info("periodic %s: period %s already scheduled, skipped", entry.name, key)
            return
        entry.options = {**entry.options, "headers": {**entry.options.get("headers", {}), periodic.PERIOD_HEADER: key}}
        super().apply_entry(entry, producer=producer)

    def close(self):
        try:
            self.redis.eval(_RELEASE, 1, LEADER_KEY, self.identity)
        except redis.RedisError:
            pass
        super().close()


_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
