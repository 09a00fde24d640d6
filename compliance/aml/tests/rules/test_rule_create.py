import pytest

from backoffice.models import AuditLog
from compliance.aml.models.rules import AMLRule, AMLRuleVersion
from compliance.aml.tests.rules.helpers import VALID_CONDITIONS, rule_body

URL = "/api/v1/admin/aml/rules"


@pytest.mark.parametrize("rule_type", sorted(VALID_CONDITIONS))
def test_mlro_creates_a_rule_of_every_type(mlro, rule_type):
    client, staff = mlro
    body = rule_body(rule_type)
    r = client.post(URL, body, format="json")
    assert r.status_code == 201, r.json()
    data = r.json()["data"]
    assert r.json()["message"] == "Rule created"
    assert data["ruleId"] == body["ruleId"] and data["ruleType"] == rule_type
    assert data["isActive"] is False and data["version"] == 1 and data["priority"] == 10
    assert data["createdAt"].endswith("Z")
    rule = AMLRule.objects.get(rule_id=body["ruleId"])
    assert AMLRuleVersion.objects.get(rule=rule).version == 1
    assert AuditLog.objects.filter(action="aml_rule.create", object_id=str(rule.pk), actor=staff).exists()


def test_duplicate_rule_id_is_409(mlro, make_rule):
    client, _ = mlro
    existing = make_rule()
    r = client.post(URL, rule_body(ruleId=existing["ruleId"]), format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "CONFLICT"


@pytest.mark.parametrize("priority", [-1, 1001, 2.5, "high", True])
def test_priority_outside_0_to_1000_is_invalid_priority_value(mlro, priority):
    client, _ = mlro
    r = client.post(URL, rule_body(priority=priority), format="json")
    assert r.status_code == 400
    assert r.json()["message"] == "Invalid priority value"
    assert not AMLRule.objects.exists()


@pytest.mark.parametrize("priority", [0, 1000])
def test_priority_bounds_are_accepted(mlro, priority):
    client, _ = mlro
    assert client.post(URL, rule_body(priority=priority), format="json").status_code == 201


def test_unknown_severity_is_400(mlro):
    client, _ = mlro
    r = client.post(URL, rule_body(severity="EXTREME"), format="json")
    assert r.status_code == 400 and "severity" in r.json()["error"]["details"]


@pytest.mark.parametrize("missing", ["ruleId", "name", "conditions"])
def test_required_fields(mlro, missing):
    client, _ = mlro
    body = rule_body()
    body.pop(missing)
    r = client.post(URL, body, format="json")
    assert r.status_code == 400 and missing in r.json()["error"]["details"]


def test_unknown_fields_are_400(mlro):
    client, _ = mlro
    r = client.post(URL, rule_body(enabled=True), format="json")
    assert r.status_code == 400 and "enabled" in r.json()["error"]["details"]


def test_is_active_can_be_set_on_creation(make_rule):
    assert make_rule(isActive=True)["isActive"] is True


@pytest.mark.parametrize("role", ["compliance_officer", "support", "finance"])
def test_only_mlro_and_admin_create_rules(staff_client, role):
    client, _ = staff_client(role)
    r = client.post(URL, rule_body(), format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "FORBIDDEN"


def test_admin_creates_rules(admin_client_api):
    assert admin_client_api.post(URL, rule_body(), format="json").status_code == 201


def test_create_alert_action_must_be_a_boolean(mlro):
    client, _ = mlro
    r = client.post(URL, rule_body(actions={"createAlert": "no"}), format="json")
    assert r.status_code == 400 and "actions" in r.json()["error"]["details"]
