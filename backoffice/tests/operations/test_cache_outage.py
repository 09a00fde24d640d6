"""Redis down or frozen: the API keeps answering, rate limiting fails open (or closed, by setting), health says 503.

Against a private redis-server the test starts, stops and freezes (SIGSTOP); never the machine's shared one.
"""

import logging

import pytest
from django.conf import settings
from django.test import Client, override_settings
from rest_framework.test import APIClient

from backoffice.ops import cache_guard
from backoffice.tests.deadlines import answered_within
from backoffice.tests.factories import PASSWORD, StaffFactory
from backoffice.tests.servers import RedisServer

pytestmark = [pytest.mark.outage, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    options = settings.REDIS_CACHE_OPTIONS  # what production runs with, whatever this run's REDIS_URL
    cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": server.url, "OPTIONS": options}
    # restored before the server stops, so the suite's own cache clearing never meets the dead server
    with override_settings(CACHES={"default": cache}):
        yield server
    server.stop()


@pytest.fixture
def me(db):
    staff = StaffFactory(role="support")
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION="Bearer "
        + client.post("/api/v1/auth/admin/login", {"email": staff.email, "password": PASSWORD}, format="json").json()[
            "data"
        ]["accessToken"]
    )
    return client


def test_with_redis_up_limits_are_counted_there(redis, me):
    first, second = me.get("/api/v1/admin/me"), me.get("/api/v1/admin/me")
    assert int(first["X-RateLimit-Remaining"]) - 1 == int(second["X-RateLimit-Remaining"])
    assert APIClient().get("/api/v1/health").json()["data"]["cache"] == "ok"


def test_redis_down_fails_open_logged_and_counted(redis, me, caplog, monkeypatch):
    # the guard logs once per interval per process: an earlier test's outage in this process must not silence it
    monkeypatch.setattr(cache_guard, "LOG_EVERY_SECONDS", 0)
    redis.stop()
    failures = cache_guard.counter_failures.total
    with caplog.at_level(logging.ERROR, logger="backoffice.ratelimit"):
        response = me.get("/api/v1/admin/me")
    assert response.status_code == 200 and "X-RateLimit-Limit" not in response
    assert cache_guard.counter_failures.total > failures
    assert any(
        "ratelimit.cache_unavailable" in r.getMessage() and "mode=open" in r.getMessage() for r in caplog.records
    )


def test_redis_down_health_is_503_with_cache_error(redis):
    redis.stop()
    response = APIClient().get("/api/v1/health")
    body = response.json()
    assert response.status_code == 503 and body["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert body["data"] == {"status": "error", "database": "ok", "cache": "error", "storage": "ok"}


def test_redis_down_fails_closed_when_configured(redis, me, settings):
    settings.RATELIMIT_FAIL_OPEN = False
    redis.stop()
    response = me.get("/api/v1/admin/me")
    assert response.status_code == 503 and response.json()["error"]["code"] == "SERVICE_UNAVAILABLE"


def test_sign_in_still_works_with_redis_down(redis):
    staff = StaffFactory(role="admin")
    redis.stop()
    api = APIClient().post("/api/v1/auth/admin/login", {"email": staff.email, "password": PASSWORD}, format="json")
    assert api.status_code == 200
    site = Client().post("/admin/login/", {"username": staff.email, "password": PASSWORD})
    assert site.status_code == 302


def test_a_frozen_redis_costs_requests_its_timeout_not_a_hang(redis, me):
    redis.freeze()
    try:
        response = answered_within(10, lambda: me.get("/api/v1/admin/me"))
        assert response.status_code == 200
        health = answered_within(10, lambda: APIClient().get("/api/v1/health"))
        assert health.status_code == 503 and health.json()["data"]["cache"] == "error"
    finally:
        redis.thaw()


def test_the_api_recovers_when_redis_comes_back(redis, me):
    redis.freeze()
    answered_within(10, lambda: me.get("/api/v1/admin/me"))
    redis.thaw()
    response = me.get("/api/v1/admin/me")
    assert response.status_code == 200 and "X-RateLimit-Limit" in response
