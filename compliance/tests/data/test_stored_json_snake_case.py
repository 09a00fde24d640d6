"""Rule version snapshots and PEP match explanations are stored snake_case, and the API answers them byte for
byte as before (issue 16); migration 0020 converts the rows written camelCase, and back."""

import importlib
import json

import pytest
from django.apps import apps as django_apps

from backoffice.jsonkeys import camel_key_paths, snake
from compliance.aml.models.rules import AMLRuleVersion
from compliance.peps.models.pep import PEPMatch
from compliance.peps.tests.helpers import BASE, make_user, pep_body

pytestmark = pytest.mark.django_db
MIGRATION = importlib.import_module("compliance.migrations.0020_rule_snapshots_and_match_explanations_snake_case")
RULES = "/api/v1/admin/aml/rules"
OLD_SNAPSHOT_KEYS = [
    "ruleId",
    "name",
    "description",
    "category",
    "ruleType",
    "conditions",
    "actions",
    "severity",
    "isActive",
    "priority",
    "version",
]


@pytest.fixture
def officer(staff_client):
    return staff_client("mlro")[0]


def make_rule(client) -> dict:
    body = {
        "ruleId": "T-SNAKE-1",
        "name": "Large withdrawals",
        "description": "A test rule",
        "category": "tests",
        "conditions": {"ruleType": "threshold", "thresholdAmount": 5000, "transactionTypes": ["WITHDRAWAL"]},
        "actions": {"createAlert": True},
        "severity": "MEDIUM",
        "priority": 10,
    }
    r = client.post(RULES, body, format="json")
    assert r.status_code == 201, r.content
    client.put(f"{RULES}/T-SNAKE-1/toggle")
    return body


def test_a_rule_version_is_stored_snake_case_and_answered_as_the_interface_has_it(officer):
    body = make_rule(officer)
    version = AMLRuleVersion.objects.filter(rule__rule_id="T-SNAKE-1").order_by("version").last()
    assert set(version.snapshot) == {snake(key) for key in OLD_SNAPSHOT_KEYS}
    assert camel_key_paths(version.snapshot) == {"conditions.ruleType", "conditions.thresholdAmount",
                                                  "conditions.transactionTypes", "actions.createAlert"}  # fmt: skip
    answered = officer.get(f"{RULES}/T-SNAKE-1/versions").json()["data"][0]
    assert set(answered["snapshot"]) == set(OLD_SNAPSHOT_KEYS)
    assert answered["snapshot"]["conditions"] == body["conditions"] and answered["isActive"] is True
    assert answered["changes"] == [{"field": "isActive", "from": False, "to": True}]


def test_the_migration_converts_old_snapshots_and_the_api_answers_the_same_bytes(officer):
    make_rule(officer)
    versions = AMLRuleVersion.objects.filter(rule__rule_id="T-SNAKE-1")
    new = {v.pk: v.snapshot for v in versions}
    answered = officer.get(f"{RULES}/T-SNAKE-1/versions")
    MIGRATION.to_camel(django_apps, None)  # the rows as the old code wrote them, read back as it answered them
    old = {str(v.version): v.snapshot for v in AMLRuleVersion.objects.filter(rule__rule_id="T-SNAKE-1")}
    assert all(set(snapshot) == set(OLD_SNAPSHOT_KEYS) for snapshot in old.values())
    MIGRATION.to_snake(django_apps, None)
    assert {v.pk: v.snapshot for v in AMLRuleVersion.objects.filter(rule__rule_id="T-SNAKE-1")} == new
    again = officer.get(f"{RULES}/T-SNAKE-1/versions")
    assert again.content == answered.content
    # the old code answered the stored snapshot as it was: same keys, same order, same text
    for entry in again.json()["data"]:
        assert json.dumps(entry["snapshot"]) == json.dumps(old[str(entry["version"])])


def test_a_match_explanation_is_stored_snake_case_and_answered_as_before(officer):
    make_user("Bakotimu", "Dafiloza")
    created = officer.post(BASE, pep_body("Bakotimu Dafiloza"), format="json").json()["data"]
    match = PEPMatch.objects.get()
    assert "matcher_version" in match.explanation and not camel_key_paths(match.explanation)
    detail = officer.get(f"{BASE}/{created['pep']['id']}").json()["data"]
    assert "matcherVersion" in detail["matchedUsers"][0]["explanation"]
    url = f"{BASE}/matches/{match.pk}"
    answered = officer.get(url).content
    assert b'"matcherVersion"' in answered and b"matcher_version" not in answered
    MIGRATION.to_camel(django_apps, None)
    match.refresh_from_db()
    old = match.explanation  # as the old code stored it, and answered it
    assert "matcherVersion" in old
    MIGRATION.to_snake(django_apps, None)
    match.refresh_from_db()
    assert "matcher_version" in match.explanation
    assert officer.get(url).content == answered
    assert json.dumps(officer.get(url).json()["data"]["explanation"]) == json.dumps(old)
