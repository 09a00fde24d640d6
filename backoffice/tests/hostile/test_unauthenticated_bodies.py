"""A body over UNAUTHENTICATED_BODY_MAX_BYTES is read only for an authenticated request, on every path.

Reading a body holds a server thread while the client sends it; anonymous clients must not be able to
hold threads that way. Each refusal below happens before any layer reads the body: the JSON check that
would read it is made to fail the test if it runs.
"""

import json

import pytest
from django.test import Client

from backoffice.http import middleware, serving
from backoffice.tests.hostile.envelope import assert_envelope

pytestmark = pytest.mark.django_db
LOGIN = "/api/v1/auth/admin/login"
USERS = "/api/v1/admin/users"


@pytest.fixture
def large():
    from django.conf import settings

    return json.dumps({"note": "x" * (settings.UNAUTHENTICATED_BODY_MAX_BYTES + 1)}).encode()


@pytest.fixture
def body_never_read(monkeypatch):
    def read(*args, **kwargs):
        raise AssertionError("the body was read")

    monkeypatch.setattr(middleware, "check_body", read)


def post(client, path, raw, **headers):
    return client.generic("POST", path, raw, content_type="application/json", **headers)


def test_an_anonymous_large_body_to_an_endpoint_that_takes_credentials_is_401_unread(api, large, body_never_read):
    response = post(api, USERS, large)
    assert_envelope(response, 401, "UNAUTHORIZED")
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_a_forged_token_with_a_large_body_is_401_unread(api, large, body_never_read):
    body = assert_envelope(post(api, USERS, large, HTTP_AUTHORIZATION="Bearer not.a.token"), 401, "UNAUTHORIZED")
    assert body["message"] == "Token is invalid or expired"


def test_a_large_body_to_a_public_endpoint_is_413_unread(api, large, body_never_read):
    body = assert_envelope(post(api, LOGIN, large), 413, "PAYLOAD_TOO_LARGE")
    assert "without authentication" in body["message"]


def test_a_large_form_to_the_admin_site_not_signed_in_is_413_before_the_csrf_check_reads_it(large):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "a@example.com", "password": "x" * len(large)})
    assert response.status_code == 413 and json.loads(response.content)["error"]["code"] == "PAYLOAD_TOO_LARGE"


def test_an_authenticated_large_body_is_read_as_before(admin_client_api, large):
    # the body reaches the JSON check and the view: a validation answer, not a refusal of its size
    response = post(admin_client_api, USERS, large)
    assert response.status_code not in (401, 413), response.json()


def test_a_small_anonymous_body_is_read_as_before(api):
    raw = json.dumps({"email": "nobody@example.com"}).encode()
    body = assert_envelope(post(api, LOGIN, raw), 400, "VALIDATION_ERROR")
    assert set(body["error"]["details"]) == {"password"}


def test_the_bound_is_within_what_the_server_gathers_before_a_thread_reads(settings):
    # so an anonymous body is only ever read by the event loop, under the request deadline
    assert settings.UNAUTHENTICATED_BODY_MAX_BYTES <= serving.BUFFERED_BODY_BYTES
