"""The OpenAPI document describes the SAR operations truthfully: JSON envelopes, and files for the export."""

import pytest
from drf_spectacular.generators import SchemaGenerator


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_every_sar_operation_is_documented(schema):
    paths = {path.rstrip("/"): item for path, item in schema["paths"].items()}
    assert {"get", "post"} <= set(paths["/api/v1/admin/aml/sars"])
    assert "put" in paths["/api/v1/admin/aml/sars/{sarId}/status"]
    assert "get" in paths["/api/v1/admin/aml/sars/{sarId}/export"]


def test_the_export_is_a_file_not_an_envelope(schema):
    paths = {path.rstrip("/"): item for path, item in schema["paths"].items()}
    ok = paths["/api/v1/admin/aml/sars/{sarId}/export"]["get"]["responses"]["200"]["content"]
    assert set(ok) == {"text/html", "text/plain", "application/xml"}
    assert all(body["schema"] == {"type": "string"} for body in ok.values())


def _resolve(schema, body):
    ref = body.get("$ref")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else body


def test_the_list_and_create_responses_are_wrapped_in_the_envelope(schema):
    paths = {path.rstrip("/"): item for path, item in schema["paths"].items()}
    for method, code in (("get", "200"), ("post", "201")):
        body = paths["/api/v1/admin/aml/sars"][method]["responses"][code]["content"]["application/json"]["schema"]
        assert set(_resolve(schema, body)["properties"]) >= {"success", "data"}


def test_the_list_documents_its_own_shape(schema):
    paths = {path.rstrip("/"): item for path, item in schema["paths"].items()}
    body = paths["/api/v1/admin/aml/sars"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    data = _resolve(schema, body)["properties"]["data"]
    assert set(data["properties"]) == {"sars", "pagination"}
    assert {"totalItems", "currentPage", "hasNextPage"} <= set(data["properties"]["pagination"]["properties"])
