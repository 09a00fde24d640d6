from unittest import mock

import pytest

pytestmark = pytest.mark.django_db


def test_health_is_public_and_reports_each_part(api):
    r = api.get("/api/v1/health")
    assert r.status_code == 200
    assert r.json() == {"success": True, "data": {"status": "ok", "database": "ok", "cache": "ok", "storage": "ok"}}


def test_health_marks_a_broken_part_and_answers_503(api):
    with mock.patch("backoffice.api.views.default_storage.exists", side_effect=OSError("disk gone")):
        r = api.get("/api/v1/health")
    body = r.json()
    assert r.status_code == 503
    assert body["success"] is False and body["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert body["data"]["storage"] == "error" and body["data"]["database"] == "ok"


def test_health_carries_rate_limit_headers(api):
    r = api.get("/api/v1/health")
    assert int(r["X-RateLimit-Limit"]) == 100
    assert int(r["X-RateLimit-Remaining"]) == 99
