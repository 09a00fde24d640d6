import json

from django.core.management import call_command


def test_schema_documents_every_rule_and_alert_operation(tmp_path):
    out = tmp_path / "schema.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(out))
    paths = {p.rstrip("/"): set(v) for p, v in json.loads(out.read_text())["paths"].items()}
    assert {"get", "post"} <= paths["/api/v1/admin/aml/rules"]
    assert {"get", "put"} <= paths["/api/v1/admin/aml/rules/{ruleId}"]
    assert "put" in paths["/api/v1/admin/aml/rules/{ruleId}/toggle"]
    assert "get" in paths["/api/v1/admin/aml/alerts"]
    assert "get" in paths["/api/v1/admin/aml/alerts/{alertId}"]
    assert "put" in paths["/api/v1/admin/aml/alerts/{alertId}/status"]
