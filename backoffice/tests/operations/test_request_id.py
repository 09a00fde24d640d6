"""X-Request-ID on every response, the client's own when it is safe to log, else a new one."""

import json
import logging

import pytest

from backoffice.ops import context
from backoffice.ops.logs import JsonFormatter

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/health", "/api/v1/no-such-thing", "/admin/login/", "/metrics"])
def test_every_response_carries_a_new_request_id(api, path):
    first, second = api.get(path), api.get(path)
    assert len(first["X-Request-ID"]) == 32 and first["X-Request-ID"] != second["X-Request-ID"]


@pytest.mark.parametrize("given", ["abc-123_X.y", "a" * 64, "0"])
def test_a_well_formed_client_id_is_kept(api, given):
    assert api.get("/api/v1/health", HTTP_X_REQUEST_ID=given)["X-Request-ID"] == given


@pytest.mark.parametrize("given", ["a" * 65, "has space", 'quote"d', "semi;colon", "ünï", ""])
def test_anything_else_is_replaced(api, given):
    answered = api.get("/api/v1/health", HTTP_X_REQUEST_ID=given)["X-Request-ID"]
    assert answered != given and len(answered) == 32


def test_errors_the_middleware_answers_carry_it_too(api):
    # refused before any view: a NUL in the path, a body over the limit
    r = api.get("/api/v1/admin/users%00", HTTP_X_REQUEST_ID="req-1")
    assert r.status_code == 400 and r["X-Request-ID"] == "req-1"


def test_the_request_log_is_one_json_event_with_id_route_principal_and_status(admin_client_api, caplog):
    caplog.set_level(logging.INFO, logger="backoffice.request")
    r = admin_client_api.get("/api/v1/admin/me", HTTP_X_REQUEST_ID="trace-me")
    assert r.status_code == 200
    record = next(rec for rec in caplog.records if rec.name == "backoffice.request")
    line = JsonFormatter().format(record)
    assert "\n" not in line
    event = json.loads(line)
    assert event["message"] == "request" and event["request_id"] == "trace-me"
    assert event["route"] == "/api/v1/admin/me" and event["status"] == 200 and event["method"] == "GET"
    assert event["principal"] == f"staff:{r.json()['data']['id']}"
    assert event["duration_ms"] >= 0 and event["ts"].endswith("Z")


def test_the_route_is_the_template_not_the_path(admin_client_api, caplog):
    caplog.set_level(logging.INFO, logger="backoffice.request")
    admin_client_api.get("/api/v1/verification/status/0b1e4d6a-0000-4000-8000-000000000000")
    record = next(rec for rec in caplog.records if rec.name == "backoffice.request")
    assert record.route == "/api/v1/verification/status/{job_id}" and record.status == 404
    caplog.clear()
    admin_client_api.get("/api/v1/nothing/here/123")
    record = next(rec for rec in caplog.records if rec.name == "backoffice.request")
    assert record.route == "<unmatched>"


def test_events_logged_inside_a_request_carry_its_id_and_principal(admin_client_api, caplog, monkeypatch):
    seen = {}
    from backoffice.api import views

    original = views.StaffMeView.get

    def spy(self, request):
        logging.getLogger("backoffice.test").warning("inside the view")
        seen.update(context.snapshot())
        return original(self, request)

    monkeypatch.setattr(views.StaffMeView, "get", spy)
    caplog.set_level(logging.INFO)
    admin_client_api.get("/api/v1/admin/me", HTTP_X_REQUEST_ID="inner-1")
    assert seen["request_id"] == "inner-1" and seen["principal"].startswith("staff:")
    assert seen["route"] == "/api/v1/admin/me"
    inner = next(rec for rec in caplog.records if rec.name == "backoffice.test")
    event = json.loads(JsonFormatter().format(inner))
    assert event["request_id"] == "inner-1" and event["principal"] == seen["principal"]
    # and nothing of the request leaks into what comes after it
    assert context.request_id.get() is None and context.principal.get() is None


def test_a_traceback_stays_on_one_line():
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", None, exc_info=True)
        import sys

        record.exc_info = sys.exc_info()
    line = JsonFormatter().format(record)
    assert "\n" not in line and "ValueError: boom" in json.loads(line)["exc"]
