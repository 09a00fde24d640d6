import pytest

from backoffice.models import AuditLog
from compliance.aml.models.rules import AMLRule, AMLRuleVersion

URL = "/api/v1/admin/aml/rules"


def test_update_changes_fields_and_keeps_the_previous_version(mlro, make_rule):
    client, staff = mlro
    rule = make_rule()
    r = client.put(
        f"{URL}/{rule['ruleId']}",
        {"name": "Renamed", "severity": "HIGH", "conditions": {"ruleType": "threshold", "thresholdAmount": 1}},
        format="json",
    )
    assert r.status_code == 200, r.json()
    assert r.json()["message"] == "Rule updated"
    data = r.json()["data"]
    assert data["name"] == "Renamed" and data["severity"] == "HIGH" and data["version"] == 2
    versions = AMLRuleVersion.objects.filter(rule_id=rule["id"]).order_by("version")
    assert [v.version for v in versions] == [1, 2]
    assert versions[0].snapshot["name"] == rule["name"] and versions[1].snapshot["name"] == "Renamed"
    assert versions[1].changed_by == staff
    entry = AuditLog.objects.get(action="aml_rule.update", object_id=rule["id"])
    # the toolkit's diff, as every other audit entry: {field: {"from", "to"}}
    assert entry.changes["fields"]["name"] == {"from": rule["name"], "to": "Renamed"}
    assert entry.changes["fields"]["severity"] == {"from": "MEDIUM", "to": "HIGH"}
    assert set(entry.changes["fields"]) == {"name", "severity", "conditions"}


def test_update_by_uuid_works_too(mlro, make_rule):
    client, _ = mlro
    rule = make_rule()
    assert client.put(f"{URL}/{rule['id']}", {"priority": 5}, format="json").json()["data"]["priority"] == 5


def test_update_with_the_same_values_spends_no_version(mlro, make_rule):
    client, _ = mlro
    rule = make_rule()
    r = client.put(f"{URL}/{rule['ruleId']}", {"name": rule["name"]}, format="json")
    assert r.status_code == 200 and r.json()["data"]["version"] == 1


@pytest.mark.parametrize("body", [{"ruleId": "NEW-ID"}, {"ruleType": "threshold"}, {"version": 9}])
def test_rule_id_and_unknown_fields_cannot_be_updated(mlro, make_rule, body):
    client, _ = mlro
    rule = make_rule()
    r = client.put(f"{URL}/{rule['ruleId']}", body, format="json")
    assert r.status_code == 400 and set(body) <= set(r.json()["error"]["details"])
    assert AMLRule.objects.get(pk=rule["id"]).version == 1


def test_update_validates_conditions_and_priority(mlro, make_rule):
    client, _ = mlro
    rule = make_rule()
    r = client.put(f"{URL}/{rule['ruleId']}", {"conditions": {"ruleType": "velocity"}}, format="json")
    assert r.status_code == 400 and "conditions.percentageChange" in r.json()["error"]["details"]
    r = client.put(f"{URL}/{rule['ruleId']}", {"priority": 5000}, format="json")
    assert r.status_code == 400 and r.json()["message"] == "Invalid priority value"


def test_changing_conditions_can_change_the_rule_type(mlro, make_rule):
    client, _ = mlro
    rule = make_rule()
    r = client.put(
        f"{URL}/{rule['ruleId']}", {"conditions": {"ruleType": "pep_related", "thresholdAmount": 5}}, format="json"
    )
    assert r.json()["data"]["ruleType"] == "pep_related"


def test_toggle_flips_and_says_so(mlro, make_rule):
    client, _ = mlro
    rule = make_rule()
    r = client.put(f"{URL}/{rule['ruleId']}/toggle")
    assert r.status_code == 200 and r.json()["message"] == "Rule enabled"
    assert r.json()["data"]["isActive"] is True and r.json()["data"]["version"] == 2
    r = client.put(f"{URL}/{rule['ruleId']}/toggle")
    assert r.json()["message"] == "Rule disabled" and r.json()["data"]["isActive"] is False
    assert AuditLog.objects.filter(action="aml_rule.toggle", object_id=rule["id"]).count() == 2


def test_unknown_rule_is_404_rule_not_found(mlro):
    client, _ = mlro
    for method, path in (("get", "NOPE"), ("put", "NOPE"), ("put", "NOPE/toggle")):
        r = getattr(client, method)(f"{URL}/{path}", {}, format="json")
        assert r.status_code == 404 and r.json()["message"] == "Rule not found"


@pytest.mark.parametrize("role", ["compliance_officer", "support", "finance"])
def test_only_mlro_and_admin_update_and_toggle(staff_client, make_rule, role):
    rule = make_rule()
    client, _ = staff_client(role)
    assert client.put(f"{URL}/{rule['ruleId']}", {"name": "x"}, format="json").status_code == 403
    assert client.put(f"{URL}/{rule['ruleId']}/toggle").status_code == 403
