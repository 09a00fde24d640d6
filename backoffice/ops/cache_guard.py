"""A limiter's cache read or write, run so that a cache outage follows ``RATELIMIT_FAIL_OPEN``.

Shared by the API's rate limits (``backoffice.http.ratelimit``) and the sign-in guard
(``backoffice.auth.login_guard``), which sits below http; failures are logged under the logger name
``backoffice.ratelimit`` that operators filter on.
"""

import logging
import threading
import time

from django.conf import settings

from backoffice.errors import ServiceUnavailable

logger = logging.getLogger("backoffice.ratelimit")
LOG_EVERY_SECONDS = 10


class _FailureCounter:
    """Cache failures seen by this process, and when the last log line about them was written."""

    def __init__(self):
        self._lock = threading.Lock()
        self.total = 0
        self._logged_at = 0.0

    def record(self, exc: Exception, *, fail_open: bool) -> None:
        with self._lock:
            self.total += 1
            now = time.monotonic()
            due = now - self._logged_at >= LOG_EVERY_SECONDS
            if due:
                self._logged_at = now
            total = self.total
        if due:  # one line per interval however many requests fail, carrying the running total
            logger.error(
                "ratelimit.cache_unavailable failures=%d mode=%s error=%s: %s",
                total,
                "open" if fail_open else "closed",
                type(exc).__name__,
                str(exc)[:200],
            )


counter_failures = _FailureCounter()


def guarded(operation, *, default):
    """Run ``operation`` (a cache read or write of a limiter); on a cache failure apply the fail-open policy.

    Fail open: count and log the failure, return ``default``. Fail closed: raise 503.
    """
    try:
        return operation()
    except Exception as exc:  # any backend's error: a cache outage must never surface as a 500
        fail_open = settings.RATELIMIT_FAIL_OPEN
        counter_failures.record(exc, fail_open=fail_open)
        if fail_open:
            return default
        raise ServiceUnavailable("Rate limiting is unavailable, try again shortly") from None
