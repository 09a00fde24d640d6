"""The cache: Redis when REDIS_URL is set (shared by every server process), else in-process."""

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_str

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured("REDIS_URL must start with redis://, rediss:// or unix://")
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    # Per-process: fine for one server process (make run uses one worker with
    # threads), wrong for several: each would count its own rate limits.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "backoffice"}}
