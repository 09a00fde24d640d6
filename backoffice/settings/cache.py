"""The cache: Redis when REDIS_URL is set (shared by every server process), else in-process."""

from django.core.exceptions import ImproperlyConfigured
from redis.backoff import NoBackoff
from redis.retry import Retry

from backoffice.env import env_int, env_str

REDIS_URL = env_str("REDIS_URL")
# A cache that is down or frozen must cost a request milliseconds, not the client library's defaults
# (no timeout, retries with back-off): every caller degrades instead (rate limits, health).
REDIS_TIMEOUT_MS = env_int("REDIS_TIMEOUT_MS", 500, minimum=10, maximum=10_000)
REDIS_CACHE_OPTIONS = {
    "socket_connect_timeout": REDIS_TIMEOUT_MS / 1000,
    "socket_timeout": REDIS_TIMEOUT_MS / 1000,
    "retry": Retry(NoBackoff(), 0),
}
if REDIS_URL:
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured("REDIS_URL must start with redis://, rediss:// or unix://")
    CACHES = {
        "default": {
            "BACKEND": "backoffice.ops.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": REDIS_CACHE_OPTIONS,
        }
    }
else:
    # Per-process: fine for one server process (scripts/serve without REDIS_URL runs one worker of
    # threads; make run gives it a Redis of its own), wrong for several: each would count its own limits.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "backoffice"}}
