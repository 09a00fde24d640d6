"""Rate limits: one group per request, headers on every /api/ response, 429 in the envelope."""

import time

import pytest

from backoffice.choices import StaffRole

pytestmark = pytest.mark.django_db


def headers(r):
    return int(r["X-RateLimit-Limit"]), int(r["X-RateLimit-Remaining"]), int(r["X-RateLimit-Reset"])


def bad_login(api, **extra):
    return api.post(
        "/api/v1/auth/admin/login", {"email": "x@example.com", "password": "wrong-pass-1"}, format="json", **extra
    )


def test_standard_headers_count_down_per_staff_member(staff_client):
    client, _ = staff_client(StaffRole.SUPPORT)
    seen = [headers(client.get("/api/v1/admin/me")) for _ in range(3)]
    assert [s[0] for s in seen] == [100, 100, 100]
    assert [s[1] for s in seen] == [99, 98, 97]
    assert all(time.time() - 1 <= s[2] <= time.time() + 61 for s in seen)


def test_each_staff_member_has_an_own_bucket(staff_client):
    first, _ = staff_client(StaffRole.SUPPORT)
    second, _ = staff_client(StaffRole.SUPPORT)
    first.get("/api/v1/admin/me")
    first.get("/api/v1/admin/me")
    assert headers(second.get("/api/v1/admin/me"))[1] == 99


def test_the_eleventh_login_in_a_minute_is_429_with_retry_after(api):
    responses = [bad_login(api) for _ in range(11)]
    assert [r.status_code for r in responses] == [401] * 10 + [429]
    assert [headers(r)[1] for r in responses[:10]] == list(range(9, -1, -1))
    limited = responses[-1]
    body = limited.json()
    assert body["statusCode"] == 429 and body["error"]["code"] == "RATE_LIMITED"
    assert 0 <= int(limited["Retry-After"]) <= 60
    assert headers(limited)[:2] == (10, 0)


def test_auth_endpoints_report_the_auth_limit(api):
    r = api.post("/api/v1/auth/otp/resend", {"phoneNumber": "+26876000000"}, format="json")
    assert headers(r)[0] == 10


def test_a_forged_forwarded_for_never_buys_a_fresh_bucket(api):
    for n in range(10):
        bad_login(api, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
    assert bad_login(api, HTTP_X_FORWARDED_FOR="10.9.9.9").status_code == 429


def test_a_trusted_proxy_hop_is_honoured(api, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for _ in range(10):
        bad_login(api, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert bad_login(api, HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429
    assert bad_login(api, HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 401


def test_errors_and_unknown_paths_carry_the_headers_too(api):
    for r in (api.get("/api/v1/admin/me"), api.get("/api/v1/nowhere")):
        assert r.status_code in (401, 404)
        assert headers(r)[0] == 100


def test_limits_come_from_settings(api, settings):
    settings.RATE_LIMIT_STANDARD = "3/m"
    statuses = [api.get("/api/v1/health").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_non_api_paths_are_not_counted(client):
    r = client.get("/admin/login/")
    assert "X-RateLimit-Limit" not in r
