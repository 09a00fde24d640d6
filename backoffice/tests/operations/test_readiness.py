"""GET /api/v1/health/ready: each configured part, 503 in the envelope naming what failed."""

import pytest
from django.test import override_settings

from backoffice.tests.brokers import BROKER_URL
from backoffice.tests.servers import RedisServer

pytestmark = pytest.mark.django_db
READY = "/api/v1/health/ready"


def test_ready_names_each_part_it_needs(api):
    r = api.get(READY)
    assert r.status_code == 200
    # no broker and no replica are configured in the tests: they are not asked about
    assert r.json() == {"success": True, "data": {"database": "ok", "cache": "ok", "storage": "ok"}}


def test_a_configured_broker_is_asked(api, settings):
    settings.TASKS_ASYNC, settings.CELERY_BROKER_URL = True, BROKER_URL
    r = api.get(READY)
    assert r.status_code == 200 and r.json()["data"]["broker"] == "ok"


def test_a_broker_that_is_down_makes_the_server_unready(api, settings, tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    settings.TASKS_ASYNC, settings.CELERY_BROKER_URL = True, redis.url
    assert api.get(READY).status_code == 200
    redis.stop()
    r = api.get(READY)
    body = r.json()
    assert r.status_code == 503 and r["Retry-After"] == "5"
    assert body["success"] is False and body["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert body["message"] == "Not ready: broker unavailable" == body["error"]["message"]
    assert body["data"] == {"database": "ok", "cache": "ok", "broker": "error", "storage": "ok"}


def test_a_cache_that_is_down_is_named(api, settings, tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    cache = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": redis.url,
        "OPTIONS": settings.REDIS_CACHE_OPTIONS,
    }
    # the rate limit counts in the cache too and fails open; only readiness is under test here
    with override_settings(CACHES={"default": cache}):
        assert api.get(READY).status_code == 200
        redis.stop()
        r = api.get(READY)
    assert r.status_code == 503 and r.json()["data"]["cache"] == "error"
    assert r.json()["message"] == "Not ready: cache unavailable"


def test_liveness_stays_what_it_was(api):
    assert api.get("/api/v1/health").json()["data"]["status"] == "ok"
