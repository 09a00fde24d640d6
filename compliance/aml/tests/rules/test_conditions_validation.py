"""conditions are checked against their ruleType, with details naming the parameter."""

import pytest

from compliance.aml.models.parameters import PARAMETERS, validate_conditions
from compliance.aml.tests.rules.helpers import VALID_CONDITIONS, rule_body

URL = "/api/v1/admin/aml/rules"


def test_every_rule_type_has_valid_example_conditions():
    assert set(VALID_CONDITIONS) == set(PARAMETERS)
    for rule_type, params in VALID_CONDITIONS.items():
        assert validate_conditions({"ruleType": rule_type, **params}) == {}, rule_type


@pytest.mark.parametrize("rule_type", sorted(VALID_CONDITIONS))
def test_each_required_parameter_missing_is_reported(rule_type):
    for name in VALID_CONDITIONS[rule_type]:
        if not PARAMETERS[rule_type][name].required:
            continue
        conditions = {"ruleType": rule_type, **VALID_CONDITIONS[rule_type]}
        conditions.pop(name)
        assert f"conditions.{name}" in validate_conditions(conditions), (rule_type, name)


@pytest.mark.parametrize("rule_type", sorted(VALID_CONDITIONS))
def test_each_parameter_mistyped_is_reported(rule_type):
    for name, value in VALID_CONDITIONS[rule_type].items():
        wrong = "lots" if not isinstance(value, str) else 5
        conditions = {"ruleType": rule_type, **VALID_CONDITIONS[rule_type], name: wrong}
        assert f"conditions.{name}" in validate_conditions(conditions), (rule_type, name)


@pytest.mark.parametrize(
    "rule_type,name",
    [
        ("threshold", "thresholdAmount"),
        ("structuring", "timeWindowHours"),
        ("velocity", "timeWindowHours"),
        ("network_analysis", "minTotalAmount"),
        ("pattern_detection", "timeWindowMinutes"),
        ("account_lifecycle", "inactiveDays"),
        ("digital_wallet", "minAmount"),
        ("regulatory_reporting", "reportingThreshold"),
        ("mobile_money", "timeWindowHours"),
        ("vendor_specific", "thresholdAmount"),
        ("cft_related", "timeWindowHours"),
        ("business_sector", "thresholdAmount"),
        ("behavioral", "thresholdAmount"),
        ("pep_related", "thresholdAmount"),
    ],
)
def test_negative_amounts_and_windows_are_refused(rule_type, name):
    conditions = {"ruleType": rule_type, **VALID_CONDITIONS[rule_type], name: -1}
    assert f"conditions.{name}" in validate_conditions(conditions)


@pytest.mark.parametrize(
    "conditions,key",
    [
        ({"ruleType": "nonsense"}, "conditions.ruleType"),
        ({"thresholdAmount": 5}, "conditions.ruleType"),
        ({"ruleType": "threshold", "thresholdAmount": True}, "conditions.thresholdAmount"),
        ({"ruleType": "threshold", "thresholdAmount": 5, "thresholdAmout": 6}, "conditions.thresholdAmout"),
        (
            {"ruleType": "structuring", "thresholdAmount": 5, "thresholdCount": 2.5, "timeWindowHours": 1},
            "conditions.thresholdCount",
        ),
        (
            {"ruleType": "pattern_detection", "minAmount": 1, "timeWindowMinutes": 5, "similarityPercentage": 120},
            "conditions.similarityPercentage",
        ),
        ({"ruleType": "regional_risk", "regions": []}, "conditions.regions"),
        (
            {"ruleType": "cft_related", "countries": ["Somalia"], "thresholdAmount": 0, "timeWindowHours": 1},
            "conditions.countries",
        ),
        (
            {"ruleType": "high_risk_transaction", "thresholdAmount": 1, "transactionTypes": ["BRIBE"]},
            "conditions.transactionTypes",
        ),
        (
            {"ruleType": "vendor_specific", "thresholdAmount": 1, "timeWindowHours": 1, "vendorStatuses": ["SHADY"]},
            "conditions.vendorStatuses",
        ),
    ],
)
def test_bad_conditions_name_the_parameter(conditions, key):
    assert key in validate_conditions(conditions)


def test_api_answers_400_with_conditions_details(mlro):
    client, _ = mlro
    body = rule_body(conditions={"ruleType": "structuring", "thresholdAmount": -5, "timeWindowHours": 24})
    r = client.post(URL, body, format="json")
    assert r.status_code == 400
    details = r.json()["error"]["details"]
    assert "conditions.thresholdAmount" in details and "conditions.thresholdCount" in details


def test_conditions_must_be_an_object(mlro):
    client, _ = mlro
    r = client.post(URL, rule_body(conditions=["threshold"]), format="json")
    assert r.status_code == 400 and "conditions" in r.json()["error"]["details"]


@pytest.mark.parametrize("actions", [{"block": "true"}, {"hold": 1}, {"createAlert": None}])
def test_decision_actions_must_be_booleans(staff_client, actions):
    from backoffice.choices import StaffRole
    from compliance.aml.tests.rules.helpers import rule_body

    client, _ = staff_client(StaffRole.MLRO)
    r = client.post("/api/v1/admin/aml/rules", rule_body(actions=actions), format="json")
    assert r.status_code == 400 and "actions" in r.json()["error"]["details"]


def test_a_rule_that_blocks_is_created_and_shown(staff_client):
    from backoffice.choices import StaffRole
    from compliance.aml.tests.rules.helpers import rule_body

    client, _ = staff_client(StaffRole.MLRO)
    r = client.post("/api/v1/admin/aml/rules", rule_body(actions={"createAlert": True, "block": True}), format="json")
    assert r.status_code == 201 and r.json()["data"]["actions"] == {"createAlert": True, "block": True}
