"""The OpenAPI document lists every vendor KYC operation with its request body."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_schema_describes_the_vendor_kyc_endpoints(admin_client_api):
    schema = admin_client_api.get("/api/schema/?format=json").json()
    paths = {path.rstrip("/"): item for path, item in schema["paths"].items()}
    base = "/api/v1/admin/vendors/{id}/kyc"
    assert "post" in paths[f"{base}/upload"]
    assert "multipart/form-data" in paths[f"{base}/upload"]["post"]["requestBody"]["content"]
    assert "get" in paths[f"{base}/progress"]
    assert {"get", "delete"} <= set(paths[f"{base}/documents"])
    assert "put" in paths[f"{base}/documents/review"] and "put" in paths[f"{base}/status"]
    assert "get" in paths["/api/v1/admin/vendors"]
