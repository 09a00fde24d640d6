"""Rate-limit counters in Redis: the same counts, headers and 429 as django-ratelimit's, in one round trip.

Against a private redis-server the test starts (never the machine's shared one).
"""

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings
from django_ratelimit.core import get_usage
from redis.connection import Connection

from backoffice.choices import StaffRole
from backoffice.http import ratelimit
from backoffice.tests.servers import RedisServer

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    cache = {
        "BACKEND": "backoffice.ops.redis_cache.RedisCache",
        "LOCATION": server.url,
        "OPTIONS": settings.REDIS_CACHE_OPTIONS,
    }
    with override_settings(CACHES={"default": cache}):
        caches["default"].clear()
        yield server
    server.stop()


@pytest.fixture
def round_trips(monkeypatch):
    sent = []
    original = Connection.send_packed_command

    def send(self, command, check_health=True):
        sent.append(command)
        return original(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", send)
    return sent


def remaining(response) -> int:
    return int(response["X-RateLimit-Remaining"])


def test_each_api_request_counts_in_one_round_trip(redis, staff_client, round_trips, settings):
    settings.RATE_LIMIT_STANDARD = "3/m"
    client, _ = staff_client(StaffRole.SUPPORT)
    round_trips.clear()
    answers = [client.get("/api/v1/admin/me") for _ in range(4)]
    assert [r.status_code for r in answers] == [200, 200, 200, 429]
    assert [remaining(r) for r in answers] == [2, 1, 0, 0]
    assert answers[3]["Retry-After"]
    assert len(round_trips) == 4  # one pipeline (SET NX, INCR) per request; nothing else of the request uses Redis


def test_the_counter_is_django_ratelimits_own(redis, rf, settings):
    # the same key and count: servers of the previous release, counting with get_usage, share the buckets
    request = rf.get("/api/v1/admin/me", REMOTE_ADDR="10.0.0.7")
    rate = settings.RATE_LIMIT_STANDARD
    ratelimit.hit(request)
    ratelimit.hit(request)
    usage = get_usage(request, group="api.standard", key=ratelimit._key, rate=rate, increment=True)
    assert usage["count"] == 3
    assert ratelimit.hit(request).remaining == int(rate.split("/")[0]) - 4
