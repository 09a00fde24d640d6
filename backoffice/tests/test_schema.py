"""The OpenAPI document describes the envelopes as they really are."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        r = APIClient().get("/api/schema/?format=json")
    assert r.status_code == 200
    return r.json()


def test_it_is_openapi_3_with_every_foundation_operation(schema):
    assert schema["openapi"].startswith("3")
    ops = {(m.upper(), p) for p, item in schema["paths"].items() for m in item}
    for op in [
        ("POST", "/api/v1/auth/admin/login"),
        ("POST", "/api/v1/auth/refresh"),
        ("POST", "/api/v1/auth/logout"),
        ("POST", "/api/v1/auth/user/register"),
        ("POST", "/api/v1/auth/user/login"),
        ("POST", "/api/v1/auth/vendor/register"),
        ("POST", "/api/v1/auth/vendor/login"),
        ("POST", "/api/v1/auth/otp/verify"),
        ("POST", "/api/v1/auth/otp/resend"),
        ("GET", "/api/v1/health"),
    ]:
        assert op in ops


def test_success_bodies_are_wrapped_in_the_envelope(schema):
    body = schema["paths"]["/api/v1/auth/admin/login"]["post"]["responses"]["200"]["content"]["application/json"]
    props = body["schema"]["properties"]
    assert props["success"]["enum"] == [True]
    assert props["data"]["$ref"].endswith("/AdminLoginOut")


def test_errors_are_documented_with_the_superset_envelope(schema):
    responses = schema["paths"]["/api/v1/admin/me"]["get"]["responses"]
    error = responses["401"]["content"]["application/json"]["schema"]
    assert set(error["required"]) == {"success", "message", "statusCode", "error"}
    assert set(error["properties"]["error"]["properties"]) == {"code", "message", "details"}


def test_public_endpoints_need_no_token_and_others_do(schema):
    assert not schema["paths"]["/api/v1/auth/admin/login"]["post"].get("security")
    assert schema["paths"]["/api/v1/admin/me"]["get"]["security"] == [{"jwtAuth": []}]


def test_the_interactive_docs_are_served(client):
    r = client.get("/api/docs/")
    assert r.status_code == 200 and "text/html" in r["Content-Type"]
