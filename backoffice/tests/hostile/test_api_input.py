"""What the API input middleware refuses for every endpoint, before any view runs."""

import json

import pytest
from django.test import Client

from backoffice.models import Staff
from backoffice.tests.hostile.envelope import assert_envelope

pytestmark = pytest.mark.django_db
LOGIN = "/api/v1/auth/admin/login"


def post_raw(client, path, raw: bytes, content_type="application/json"):
    return client.generic("POST", path, raw, content_type=content_type)


def test_deep_json_on_the_unauthenticated_login_is_a_cheap_400(api):
    body = assert_envelope(post_raw(api, LOGIN, b"[" * 50_000), 400, "VALIDATION_ERROR")
    assert "nested more than 64 levels" in body["message"]


def test_duplicate_keys_are_400_on_every_endpoint(api, admin_client_api):
    raw = b'{"email": "a@example.com", "email": "b@example.com", "password": "x"}'
    assert_envelope(post_raw(api, LOGIN, raw), 400)
    # an endpoint that never reads a body refuses it as well
    assert_envelope(post_raw(admin_client_api, "/api/v1/admin/me", b'{"a": 1, "a": 2}'), 400)


def test_nul_in_a_body_string_is_400_naming_the_field(api):
    body = assert_envelope(post_raw(api, LOGIN, b'{"email": "a\\u0000b@example.com", "password": "x"}'), 400)
    assert list(body["error"]["details"]) == ["email"]


def test_nul_in_a_query_parameter_is_400_naming_it(admin_client_api):
    body = assert_envelope(admin_client_api.get("/api/v1/admin/users", {"q": "a\x00b"}), 400)
    assert list(body["error"]["details"]) == ["q"]


@pytest.mark.parametrize("path", ["/api/v1/admin/aml/rules/%00", "/api/v1/admin/users/%00/", "/api/v1/health%0A"])
def test_control_characters_in_the_path_are_400_naming_the_path(admin_client_api, path):
    body = assert_envelope(admin_client_api.get(path), 400)
    assert "path" in body["error"]["details"]


def test_a_newline_in_a_path_never_falls_through_to_html(settings):
    settings.DEBUG = True
    client = Client(raise_request_exception=False)
    for path in ["/api/v1/nothing\n", "/api/v1/nothing%0A", "/api/\n/x"]:
        response = client.get(path)
        assert 400 <= response.status_code < 500
        assert_envelope(response)


def test_a_body_over_the_limit_is_413(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    raw = json.dumps({"email": "a@example.com", "password": "x" * 2000}).encode()
    assert_envelope(post_raw(api, LOGIN, raw), 413, "PAYLOAD_TOO_LARGE")
    form = "email=a%40example.com&password=" + "x" * 2000
    assert_envelope(post_raw(api, LOGIN, form.encode(), "application/x-www-form-urlencoded"), 413)


def test_a_multipart_body_to_an_endpoint_without_an_upload_cap_is_413_past_the_limit(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = api.post(LOGIN, {"email": "a@example.com", "password": "x" * 3000}, format="multipart")
    assert_envelope(response, 413, "PAYLOAD_TOO_LARGE")


def test_too_many_query_parameters_or_form_fields_are_400(admin_client_api, api, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 50
    query = "&".join(f"p{i}=1" for i in range(60))
    assert_envelope(admin_client_api.get(f"/api/v1/admin/users?{query}"), 400)
    form = "&".join(f"f{i}=1" for i in range(60)).encode()
    assert_envelope(post_raw(api, LOGIN, form, "application/x-www-form-urlencoded"), 400)


def test_nul_in_form_and_multipart_fields_is_400(api):
    raw = b"email=a%00b&password=x"
    body = assert_envelope(post_raw(api, LOGIN, raw, "application/x-www-form-urlencoded"), 400)
    assert "email" in body["error"]["details"]
    body = assert_envelope(api.post(LOGIN, {"email": "a\x00b", "password": "x"}, format="multipart"), 400)
    assert "email" in body["error"]["details"]


def test_a_body_of_a_media_type_no_parser_reads_is_415_even_where_the_body_is_ignored(admin_client_api):
    assert_envelope(post_raw(admin_client_api, "/api/v1/admin/me", b"a,b", "text/csv"), 415)


def test_a_huge_page_is_400_and_a_huge_limit_is_capped(admin_client_api):
    body = assert_envelope(admin_client_api.get("/api/v1/admin/users", {"page": "10000000000000000000000"}), 400)
    assert "page" in body["error"]["details"]
    assert_envelope(admin_client_api.get("/api/v1/admin/users", {"page": "²"}), 400)
    capped = admin_client_api.get("/api/v1/admin/users", {"limit": "9" * 5000})
    assert capped.status_code == 200 and capped.json()["pagination"]["limit"] == 100


def test_a_bad_host_answers_in_the_envelope(api):
    response = api.get("/api/v1/health", HTTP_HOST="evil.example")
    body = assert_envelope(response, 400)
    assert "Host" in body["message"]


def test_django_error_pages_outside_the_api_stay_html(client):
    response = client.get("/admin/\x00")
    assert not response["Content-Type"].startswith("application/json")


def test_every_api_response_is_no_store_and_the_admin_site_has_a_content_security_policy(api, admin_client_api):
    assert api.get("/api/v1/health")["Cache-Control"] == "no-store"
    assert "no-store" in admin_client_api.get("/api/v1/admin/me")["Cache-Control"]
    assert api.get("/api/v1/nothing")["Cache-Control"] == "no-store"
    csp = Client().get("/admin/login/")["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp


def test_writes_refused_here_change_nothing(api):
    before = Staff.objects.count()
    post_raw(api, LOGIN, b'{"email": "\\u0000"}')
    assert Staff.objects.count() == before


def test_clean_form_and_multipart_bodies_still_reach_the_view(api):
    from backoffice.tests.factories import PASSWORD, StaffFactory

    staff = StaffFactory()
    form = f"email={staff.email}&password={PASSWORD}".encode()
    assert post_raw(api, LOGIN, form, "application/x-www-form-urlencoded").status_code == 200
    assert api.post(LOGIN, {"email": staff.email, "password": PASSWORD}, format="multipart").status_code == 200
