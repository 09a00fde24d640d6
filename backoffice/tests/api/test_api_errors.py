"""Every error under /api/ leaves in the one envelope, never as HTML."""

from unittest import mock

import pytest

pytestmark = pytest.mark.django_db


def assert_envelope(response, status, code):
    body = response.json()
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    assert body["success"] is False
    assert body["statusCode"] == status
    assert body["error"]["code"] == code
    assert body["message"] == body["error"]["message"] and body["message"]
    return body


@pytest.mark.parametrize("path", ["/api/v1/does-not-exist", "/api/v2/admin/users", "/api/whatever", "/api"])
def test_unknown_api_paths_are_404_envelopes(api, path):
    assert_envelope(api.get(path), 404, "NOT_FOUND")


def test_unknown_api_path_is_json_even_with_debug_on(api, settings):
    settings.DEBUG = True
    r = api.get("/api/v1/nothing/here")
    assert_envelope(r, 404, "NOT_FOUND")
    assert b"<html" not in r.content.lower()


def test_wrong_method_is_405_envelope(api):
    assert_envelope(api.delete("/api/v1/health"), 405, "METHOD_NOT_ALLOWED")
    assert_envelope(api.get("/api/v1/auth/admin/login"), 405, "METHOD_NOT_ALLOWED")


def test_malformed_json_is_400_envelope(api):
    r = api.post(
        "/api/v1/auth/admin/login", data=b'{"email": "x@example.com", "password": ', content_type="application/json"
    )
    body = assert_envelope(r, 400, "VALIDATION_ERROR")
    assert "Traceback" not in body["message"]


def test_json_array_instead_of_object_is_400(api):
    r = api.post("/api/v1/auth/admin/login", data=[1, 2], format="json")
    assert_envelope(r, 400, "VALIDATION_ERROR")


def test_unsupported_media_type_is_415(api):
    r = api.post("/api/v1/auth/admin/login", data="email=x", content_type="text/csv")
    assert_envelope(r, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_validation_details_name_each_field(api):
    body = assert_envelope(api.post("/api/v1/auth/admin/login", data={}, format="json"), 400, "VALIDATION_ERROR")
    assert set(body["error"]["details"]) == {"email", "password"}
    assert all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in body["error"]["details"].values())


def test_an_unexpected_exception_is_a_500_envelope_without_a_trace(api):
    with mock.patch("backoffice.api.views.HealthView.get", side_effect=RuntimeError("secret internals")):
        r = api.get("/api/v1/health")
    body = assert_envelope(r, 500, "INTERNAL_ERROR")
    assert "secret internals" not in r.content.decode()
    assert body["message"] == "Internal server error"


def test_an_unexpected_exception_is_json_with_debug_on(settings):
    from django.test import Client

    settings.DEBUG = True
    client = Client(raise_request_exception=False)
    with mock.patch("backoffice.api.views.HealthView.get", side_effect=RuntimeError("boom")):
        r = client.get("/api/v1/health")
    assert_envelope(r, 500, "INTERNAL_ERROR")


def test_non_api_paths_keep_django_html_404(client):
    r = client.get("/definitely-not-here/")
    assert r.status_code == 404
    assert not r["Content-Type"].startswith("application/json")


def test_wrong_method_on_a_role_guarded_route_is_405_not_403(staff_client):
    from backoffice.choices import StaffRole

    client, _ = staff_client(StaffRole.SUPPORT)
    assert_envelope(client.delete("/api/v1/admin/me"), 405, "METHOD_NOT_ALLOWED")
