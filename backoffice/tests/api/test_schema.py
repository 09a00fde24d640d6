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


def test_the_interactive_docs_load_no_script_or_style_from_another_site(client):
    """Served offline too: every script and style sheet of /api/docs/ is one of our static files, and found."""
    import re

    page = client.get("/api/docs/").content.decode()
    assets = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', page)
    assert assets and all(a.startswith("/static/") for a in assets), assets
    for asset in assets:
        assert client.get(asset).status_code == 200, asset


def test_the_document_is_valid_openapi_3_0_3(schema):
    from openapi_spec_validator import OpenAPIV30SpecValidator

    assert schema["openapi"] == "3.0.3"
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in OpenAPIV30SpecValidator(schema).iter_errors()]
    assert not errors, "\n".join(errors[:20])


def test_every_operation_documents_the_errors_any_request_can_meet(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            statuses = set(operation["responses"])
            assert {"400", "404", "429", "500", "503"} <= statuses, (method, path)
            if operation.get("security"):
                assert {"401", "403"} <= statuses, (method, path)
            if method in ("post", "put", "patch"):
                assert {"413", "415"} <= statuses, (method, path)


def test_the_sign_in_endpoints_document_their_401(schema):
    for path in ("/api/v1/auth/admin/login", "/api/v1/auth/refresh", "/api/v1/auth/logout"):
        assert "401" in schema["paths"][path]["post"]["responses"], path


def test_money_is_a_decimal_number_with_cents(schema):
    amount = schema["components"]["schemas"]["AddBalanceInRequest"]["properties"]["amount"]
    assert (amount["type"], amount["multipleOf"], amount["minimum"]) == ("number", 0.01, 0.01)
    assert "exclusiveMinimum" not in amount


def _resolved(schema: dict, document: dict) -> dict:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def test_every_success_body_is_wrapped_in_the_envelope_exactly_once(schema):
    # a body declared through a component reference was wrapped again: {success, data: {success, data}}
    checked = 0
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                body = (response.get("content") or {}).get("application/json")
                if not status.startswith("2") or body is None:
                    continue
                envelope = _resolved(body["schema"], schema)
                assert envelope["properties"]["success"], (method, path, status)
                assert {"success", "data"} <= set(envelope["required"]), (method, path, status)
                data = _resolved(envelope["properties"]["data"], schema)
                assert "success" not in (data.get("properties") or {}), (method, path, status)
                checked += 1
    assert checked > 50


def test_the_pep_search_and_screen_answers_are_one_envelope_with_a_count(schema):
    for path, method in (("/api/v1/admin/aml/pep/search/", "get"), ("/api/v1/admin/aml/pep/screen/", "post")):
        body = schema["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"]
        envelope = _resolved(body, schema)
        assert set(envelope["properties"]) == {"success", "data", "count"}, path
        assert envelope["properties"]["data"]["type"] == "array", path
